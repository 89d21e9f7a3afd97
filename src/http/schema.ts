import { Type, type TSchema, type SchemaOptions, type StringOptions, type TUnsafe, type Static } from '@sinclair/typebox';

/**
 * `T | null` written as a JSON Schema type list (`["string","null"]`) rather than anyOf, so ajv
 * reports one clear message and OpenAPI 3.1 shows one schema.
 */
export function Nullable<T extends TSchema>(schema: T, options: SchemaOptions = {}): TUnsafe<Static<T> | null> {
  const { type, ...rest } = schema as unknown as { type?: string | string[] } & Record<string, unknown>;
  if (typeof type === 'string') {
    const enumValues = (rest.enum as unknown[] | undefined)?.concat(null);
    return Type.Unsafe<Static<T> | null>({ ...rest, ...options, type: [type, 'null'], ...(enumValues ? { enum: enumValues } : {}) });
  }
  return Type.Unsafe<Static<T> | null>({ ...options, anyOf: [schema, { type: 'null' }] });
}

/** A string enum as `{type: string, enum: [...]}` (TypeBox's Union of literals reads poorly in OpenAPI). */
export function StringEnum<const T extends readonly string[]>(values: T, options: SchemaOptions = {}): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/**
 * A schema embedded in another resource's answer, without its `$id`: the same resource may be
 * embedded at several places of one answer (a profile's extensions and their devices), and a
 * schema id may appear only once per document.
 */
export function Embedded<T extends TSchema>(schema: T): T {
  const { $id: _id, ...rest } = schema;
  return rest as T;
}

/**
 * The characters no value that reaches the PBX may hold: C0 controls (line breaks, tab), DEL, C1
 * controls and the Unicode line and paragraph separators. Asterisk's configuration files are read
 * one `key = value` a line and AMI actions one `Field: value` a line, so any of them would end the
 * value (the configuration compiler's `escape.ts` refuses the same set).
 */
const PBX_CONTROL = '\\u0000-\\u001F\\u007F-\\u009F\\u2028\\u2029';
const PBX_CONTROL_RE = new RegExp(`[${PBX_CONTROL}]`, 'u');

/** `PbxText`'s pattern: any text without those characters. */
export const PBX_TEXT_PATTERN = `^[^${PBX_CONTROL}]*$`;
/**
 * `PbxSecret`'s pattern: as PBX_TEXT_PATTERN, and neither beginning nor ending with white space nor
 * beginning with a backslash (Asterisk's parser trims the one and drops the other: the PBX would
 * read another secret than the one stored).
 */
export const PBX_SECRET_PATTERN = `^(?![\\s\\\\])(?!.*\\s$)[^${PBX_CONTROL}]*$`;

/** Whether `text` holds a character PbxText refuses (multipart fields, checked outside ajv). */
export const hasPbxControl = (text: string): boolean => PBX_CONTROL_RE.test(text);

/**
 * Text that reaches the PBX: a name in its configuration (a caller ID, a mailbox's owner, a
 * comment) or a field of an AMI action. Refused with 422 on the field when it holds a control
 * character (see PBX_CONTROL); the message is `validation-messages.ts`'s for `x-pbx-text`.
 * Free text that never reaches the PBX (descriptions, notes) is a plain `Type.String`.
 */
export const PbxText = (options: StringOptions = {}) => Type.String({ ...options, pattern: PBX_TEXT_PATTERN, 'x-pbx-text': 'text' });

/** A password or secret written into the PBX configuration: PbxText, and see PBX_SECRET_PATTERN. */
export const PbxSecret = (options: StringOptions = {}) => Type.String({ ...options, pattern: PBX_SECRET_PATTERN, 'x-pbx-text': 'secret' });

export const Uuid = (options: SchemaOptions = {}) => Type.String({ format: 'uuid', ...options });
export const DateTime = (options: SchemaOptions = {}) => Type.String({ format: 'date-time', ...options });
export const DateOnly = (options: SchemaOptions = {}) => Type.String({ format: 'date', ...options });

// Error bodies of the contract's Errors table.
export const UnauthorizedBody = Type.Object({ error: Type.String() }, { $id: 'UnauthorizedError', description: 'Missing or invalid token' });
export const ForbiddenBody = Type.Object({ message: Type.String() }, { $id: 'ForbiddenError', description: 'Not allowed' });
export const NotFoundBody = Type.Object(
  { message: Type.Array(Type.String()) },
  { $id: 'NotFoundError', description: 'Not found, or belongs to another user or tenant' },
);
export const ValidationBody = Type.Object(
  { message: Type.String(), errors: Type.Record(Type.String(), Type.Array(Type.String())) },
  { $id: 'ValidationError', description: 'A parameter is invalid', additionalProperties: true },
);
export const MessageBody = Type.Object({ message: Type.String() }, { $id: 'MessageError', description: 'Client error' });
export const ServerErrorBody = Type.Object(
  {
    message: Type.String(),
    exception: Type.Optional(Type.String()),
    file: Type.Optional(Type.String()),
    line: Type.Optional(Type.Integer()),
  },
  { $id: 'ServerError', description: 'Unexpected server error; exception, file and line outside production only' },
);

export const InUseBody = Type.Object(
  {
    message: Type.String(),
    used_by: Type.Array(
      Type.Object({
        type: Type.String({ description: 'What points at the resource: ivr, ivr_step, call_flow, queue, queue_member, phone_number, contact, contact_group.' }),
        id: Type.String(),
        name: Type.String(),
        path: Type.Union([Type.String(), Type.Null()], {
          description: 'Where in it (a call-flow node and field, an IVR key); null when the whole resource does.',
        }),
      }),
    ),
  },
  { $id: 'InUseError', description: 'Still used: delete or repoint what is listed in used_by first (soft delete stays possible)' },
);

export const SHARED_SCHEMAS = [UnauthorizedBody, ForbiddenBody, NotFoundBody, ValidationBody, MessageBody, InUseBody, ServerErrorBody];

/** `{message, data}` envelope used by login and profile endpoints. */
export const MessageData = <T extends TSchema>(data: T) => Type.Object({ message: Type.String(), data });
export const DataEnvelope = <T extends TSchema>(data: T) => Type.Object({ data });

/**
 * The `pbx_id` of a path that names its PBX (`/{pbx_id}/...`). Any string: the auth plugin answers
 * 403 for every PBX but the caller's (see tenantInPath) before validation, a malformed id included.
 */
export const PbxIdParam = Type.String({ maxLength: 64, description: "The caller's PBX; any other is refused with 403." });

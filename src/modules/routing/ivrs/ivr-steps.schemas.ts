import { Type, type Static } from '@sinclair/typebox';
import { ListQuery } from '../../../http/list-query.js';
import { IncludeParam } from '../../../http/include.js';
import { DateTime, Nullable, PbxText, StringEnum, Uuid } from '../../../http/schema.js';
import { TrashedFilterParam } from '../../../http/soft-delete.js';
import { LanguageOrAuto } from '../shared/languages.js';
import { STEP_TARGET_TYPES } from '../usages.js';

/** The DTMF keys of a menu, in the order steps are listed: `default` (no key before the timeout), 0-9, *, #. */
export const IVR_OPTIONS = ['default', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '#'] as const;
export type IvrOption = (typeof IVR_OPTIONS)[number];

export const TARGET_TYPES = [STEP_TARGET_TYPES.call_flow, STEP_TARGET_TYPES.ivr] as const;
export type StepTargetType = (typeof TARGET_TYPES)[number];
/** The kind of resource each target type names (as `used_by` and `include=steps.target` name it). */
export const TARGET_KINDS = ['call_flow', 'ivr'] as const;
export type StepTargetKind = (typeof TARGET_KINDS)[number];

/** What a step sends the caller to (`include=target`, `include=steps.target`); null when it is gone. */
export const StepTarget = Type.Object({
  id: Uuid(),
  name: Type.String(),
  type: StringEnum(TARGET_KINDS, { description: 'call_flow or ivr.' }),
});

export const STEP_INCLUDES = ['target'] as const;

export const IvrStep = Type.Object(
  {
    id: Uuid(),
    pbx_id: Uuid(),
    ivr_id: Uuid(),
    target_type: StringEnum(TARGET_TYPES, { description: 'App\\Models\\CallFlow (a call flow) or App\\Models\\Ivr (another menu: menus nest).' }),
    target_id: Uuid(),
    name: Nullable(Type.String({ description: 'A label.' })),
    option: StringEnum(IVR_OPTIONS, { description: 'The DTMF key; default applies when no key is pressed before the timeout.' }),
    language: LanguageOrAuto('Announcement language from this step onward; null keeps the current language.'),
    voip_ivr_btn_id: Nullable(Type.Integer({ description: 'Legacy correlation id.' })),
    target: Type.Optional(Nullable(StepTarget, { description: 'With include=target (steps.target on an IVR): the call flow or IVR; null when it is gone.' })),
    created_at: DateTime(),
    updated_at: DateTime(),
    deleted_at: Nullable(DateTime()),
  },
  {
    $id: 'IvrStep',
    examples: [
      {
        id: '2eb8bbc9-1b98-4154-bf2d-ef54470adcf9',
        pbx_id: '5b434841-6826-4eb7-9e1e-52f33261ad31',
        ivr_id: 'e4f90702-01c5-47ef-b715-71f55b2d49bd',
        target_type: 'App\\Models\\CallFlow',
        target_id: '22aeb4e7-da85-4591-ae3e-48b5151781a5',
        name: 'Support (no key)',
        option: 'default',
        language: null,
        voip_ivr_btn_id: null,
        created_at: '2026-11-02T08:30:00.000Z',
        updated_at: '2026-11-02T08:30:00.000Z',
        deleted_at: null,
      },
    ],
  },
);
export type IvrStepView = Static<typeof IvrStep>;

export const CreateIvrStepBody = Type.Object(
  {
    option: StringEnum(IVR_OPTIONS, { description: 'One live step per key of a menu (else 422).' }),
    target_type: StringEnum(TARGET_TYPES),
    target_id: Uuid({ description: 'A live call flow or IVR of the PBX, as target_type says.' }),
    name: Type.Optional(Nullable(PbxText({ maxLength: 128 }))),
    language: Type.Optional(LanguageOrAuto('Announcement language from this step onward; null (default) keeps the current language.')),
    voip_ivr_btn_id: Type.Optional(Nullable(Type.Integer({ minimum: -2147483648, maximum: 2147483647 }))),
  },
  {
    additionalProperties: false,
    examples: [
      {
        option: '1',
        name: 'Sales',
        target_type: 'App\\Models\\CallFlow',
        target_id: '0d6a7c9e-1f2b-4c3d-8e4f-5a6b7c8d9e0f',
        language: 'de',
        voip_ivr_btn_id: null,
      },
    ],
  },
);
export const UpdateIvrStepBody = Type.Partial(CreateIvrStepBody, { additionalProperties: false });
export type CreateIvrStepInput = Static<typeof CreateIvrStepBody>;
export type UpdateIvrStepInput = Static<typeof UpdateIvrStepBody>;

export const IvrStepsParams = Type.Object({ ivr: Uuid() });
export const IvrStepParams = Type.Object({ ivr: Uuid(), step: Uuid() });
export const IvrStepInclude = Type.Object({ include: IncludeParam(STEP_INCLUDES) });
export const IvrStepListQuery = ListQuery({
  sort: ['option', 'created_at'],
  include: STEP_INCLUDES,
  search: false,
  filters: { option: StringEnum(IVR_OPTIONS), trashed: TrashedFilterParam('steps') },
});

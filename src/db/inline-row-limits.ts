import {
  LimitNode,
  OffsetNode,
  SelectQueryNode,
  ValueNode,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';

/** A whole number bound as a parameter, written into the SQL text instead; anything else as it was. */
function inlined(value: OperationNode): OperationNode {
  return ValueNode.is(value) && !value.immediate && Number.isSafeInteger(value.value) && (value.value as number) >= 0
    ? ValueNode.createImmediate(value.value)
    : value;
}

/**
 * SQLite reads a bound LIMIT or OFFSET when it plans a query, and so marks the prepared statement
 * to be parsed and planned again whenever that parameter is bound, which is at every execution
 * (`sqlite3ExprIsInteger` sets the statement's variable mask). Every list page paid a full prepare
 * despite the statement cache (database.ts). Written into the SQL text as integers (validated
 * numbers only, never text), the cached statement keeps its plan; the statement cache holds one
 * per page size and offset in use. Only the outermost query's clauses, so it costs nothing else.
 */
export class InlineRowLimits implements KyselyPlugin {
  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    if (!SelectQueryNode.is(node) || (!node.limit && !node.offset)) return node;
    return Object.freeze({
      ...node,
      ...(node.limit ? { limit: LimitNode.create(inlined(node.limit.limit)) } : {}),
      ...(node.offset ? { offset: OffsetNode.create(inlined(node.offset.offset)) } : {}),
    });
  }

  transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(result);
  }
}

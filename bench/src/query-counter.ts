import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

/**
 * Counts the statements a Kysely instance sends, by kind (`SelectQueryNode`, `UpdateQueryNode`…): every query of
 * `db.withPlugin(counter)` and of its transactions goes through `transformQuery` once. BEGIN and COMMIT are the
 * driver's and not counted.
 */
export class QueryCounter implements KyselyPlugin {
  readonly byKind = new Map<string, number>();

  get total(): number {
    let total = 0;
    for (const count of this.byKind.values()) total += count;
    return total;
  }

  reset(): void {
    this.byKind.clear();
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const kind = args.node.kind
      .replace(/QueryNode$/, '')
      .replace(/Node$/, '')
      .toLowerCase();
    this.byKind.set(kind, (this.byKind.get(kind) ?? 0) + 1);
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

import type { KyselyPlugin } from 'kysely';

/**
 * A Kysely plugin counting the statements the database answers while `recording` is set: what one
 * request costs, measured in an app the bench builds on the server's database (routing writes,
 * absence approves).
 */
export function statementCounter(): KyselyPlugin & { count: number; recording: boolean } {
  return {
    count: 0,
    recording: false,
    transformQuery: ({ node }) => node,
    async transformResult({ result }) {
      if (this.recording) this.count += 1;
      return result;
    },
  };
}

/**
 * Orders two snowflakes as numbers, from their decimal strings, without BigInt: negative when `a`
 * is smaller, zero when equal, positive when larger.
 *
 * Exact for what Discord sends (digits only, no leading zero): a shorter number is smaller, and
 * two of one length order as their characters do. massnick's snowflake arithmetic is otherwise
 * BigInt (`discord/snowflake.ts`); this is the one exception, because the account-age filter
 * compares every member of a job: 14 ns a member on strings, against 67 ns for `BigInt(id) < t`
 * and 108 ns for reading the timestamp out (1M ids, Node 20). Since ids grow with time, comparing
 * an id with the smallest id of a millisecond tells whether it was made before that millisecond.
 */
export function compareSnowflakes(a: string, b: string): number {
	if (a.length !== b.length) return a.length - b.length;
	return a < b ? -1 : a > b ? 1 : 0;
}

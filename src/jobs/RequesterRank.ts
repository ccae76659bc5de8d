/**
 * How far the person who asked for a job reaches by hand, as Discord bounds them. The bots act for
 * them, so a job reaches no further: Discord's permission hierarchy binds every member, holders of
 * Administrator included, and only the server owner stands above it.
 *
 * - `operator`: the person at the machine (`massnick run`), who holds the bots' tokens and so
 *   already has the bots' reach; bounded by the bots alone.
 * - `owner`: the server owner; bounded by the bots alone.
 * - `member`: anyone else. They may edit only members whose highest role is below theirs, and give
 *   or take only roles below it.
 *
 * @see {@link https://discord.com/developers/docs/topics/permissions#permission-hierarchy}
 */
export type RequesterRank =
	| { readonly kind: 'operator' }
	| { readonly kind: 'owner'; readonly userId: string }
	| {
			readonly kind: 'member';
			readonly userId: string;
			/** Their highest role's position (0: `@everyone`, no role at all). */
			readonly position: number;
			/** That role's name, for people (`everyone` with no role). */
			readonly roleName: string;
			/**
			 * That role's id (absent with no role): a rank kept on disk is compared by the role's
			 * position then, which moves when roles below it are added or deleted.
			 */
			readonly roleId?: string | undefined;
	  };

/** The operator at the machine: the bots' reach, no more. */
export const OPERATOR: RequesterRank = Object.freeze({ kind: 'operator' });

import type { BotRole } from '../discord/requiredPermissions.js';

/** What the doctor read about one bot with its own token. Fields are absent when not reached. */
export interface BotFacts {
	/** How the report names the bot: `boss`, `worker 0`... (never by its token). */
	readonly label: string;
	readonly role: BotRole;
	/** Which setting holds the token: `BOSS_TOKEN`, or `WORKER_TOKENS` place `index + 1`. */
	readonly tokenSetting: string;
	/** `rejected`: Discord answered 401. `unknown`: the check failed before it could tell. */
	readonly token: 'accepted' | 'rejected' | 'unknown';
	/** An unexpected failure (network, 5xx, an unknown error code), already free of secrets. */
	readonly failure?: string;
	/** From `GET /applications/@me`. */
	readonly application?: {
		readonly id: string;
		readonly name: string;
		readonly flags: number;
		/** The bot user's id: equal to the application's for every app made since 2016. */
		readonly botUserId: string;
	};
	/** The bot's roles in the guild, or `null` when it is not a member. */
	readonly memberRoles?: readonly string[] | null;
	/** Boss only: whether the guild commands route answered (the `applications.commands` scope). */
	readonly commands?: 'allowed' | 'missing-access';
}

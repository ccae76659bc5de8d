/** How a ban job bans: how much of each user's recent messages goes with them, and the moderator's reason. */
export interface BanOptions {
	/** 0 to 604,800 (a week), as Discord takes it. */
	readonly deleteMessageSeconds: number;
	/** The moderator's words for the audit log, before massnick's own reason. */
	readonly reason?: string | undefined;
}

/**
 * The options as a journal keeps them (the action's `target`): a rerun with the same ones
 * continues the same journal, and a resume after a restart bans as the job began.
 */
export function banTarget(options: BanOptions): string {
	return JSON.stringify(options.reason === undefined ? { deleteMessageSeconds: options.deleteMessageSeconds } : options);
}

/** The options a journal's target holds; a target not of this form (or hand-edited) bans with none. */
export function banOptionsOf(target: string): BanOptions {
	try {
		const parsed = JSON.parse(target) as { deleteMessageSeconds?: unknown; reason?: unknown };
		const seconds = parsed.deleteMessageSeconds;
		return {
			deleteMessageSeconds: Number.isInteger(seconds) && (seconds as number) >= 0 && (seconds as number) <= 604_800 ? (seconds as number) : 0,
			...(typeof parsed.reason === 'string' ? { reason: parsed.reason } : {}),
		};
	} catch {
		return { deleteMessageSeconds: 0 };
	}
}

import type { BossContext } from '../BossContext.js';

/** For a boss whose workers run elsewhere without FLEET_JOURNALS_DIR: how it could follow their jobs. */
export function fleetHint(context: BossContext): string {
	if (context.config.fleetJournalsDir !== undefined) return '';
	return (
		context.fleet.scope.elsewhere(
			() =>
				" The workers run in other processes, and this boss cannot see their jobs: set FLEET_JOURNALS_DIR to where their data folders are (the fleet's journal volume, mounted read-only) and /status follows them; /stats with `name:` counts a nickname meanwhile.",
		) ?? ''
	);
}

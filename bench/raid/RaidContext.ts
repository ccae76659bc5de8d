import type { RaidScenario } from './RaidScenario.js';

/** What every part of a raid run shares. */
export interface RaidContext {
	readonly scenario: RaidScenario;
	/** A fresh directory for this run's logs and the bots' data. */
	readonly workDir: string;
	/** discord.js's REST offset, 50 ms scaled with the windows, for every subject alike. */
	readonly offsetMs: number;
	readonly progress: (line: string) => void;
}

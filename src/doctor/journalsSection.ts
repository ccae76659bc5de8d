import type { Config } from '../config/Config.js';

/**
 * The report's last section: the journals of originals under `dataDir` (an unfinished job, a
 * journal that cannot be read). Not checked yet; this is where that check goes.
 */
export function journalsSection(config: Pick<Config, 'dataDir' | 'guildId'>): () => Promise<string[]> {
	return async () => ['Journals on disk', `  not checked yet (they live in ${config.dataDir}/${config.guildId}/)`];
}

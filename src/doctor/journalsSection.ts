import type { Config } from '../config/index.js';
import { journalName, journalsOnDisk } from '../jobs/index.js';

/**
 * The report's last section: every journal under `dataDir`, what it holds and how long it is
 * kept. A journal holds member ids and their old values (personal data), so the operator sees
 * what is on disk; only a fully restored one has a deletion date, the others may still be
 * needed by `/restore`.
 */
export function journalsSection(
	config: Pick<Config, 'dataDir'> & { readonly journal: Pick<Config['journal'], 'deleteRestoredAfterDays'> },
	now: () => number = Date.now,
): () => Promise<string[]> {
	return async () => {
		const warnings: string[] = [];
		const journals = await journalsOnDisk(config.dataDir, {
			deleteRestoredAfterDays: config.journal.deleteRestoredAfterDays,
			onWarning: (message) => warnings.push(message),
		});
		const lines = [`Journals on disk (${config.dataDir}, owner-only: they hold member ids and what each job changed)`];
		if (journals.length === 0) lines.push('  none');
		for (const journal of journals) {
			const { header, state } = journal;
			const what = header.title;
			const kept =
				journal.deleteAfter === undefined
					? state === 'restored'
						? 'restored'
						: 'kept until /restore undoes it'
					: journal.deleteAfter.getTime() <= now()
						? 'restored; deleted at the next start or daily check'
						: `restored; deleted after ${journal.deleteAfter.toISOString().slice(0, 10)}`;
			lines.push(
				`  ${journalName(journal)}  ${what}, by ${header.startedBy.tag} ${header.startedAt.slice(0, 10)}, ${state}, ${formatBytes(journal.bytes)}: ${kept}`,
			);
		}
		for (const warning of warnings) lines.push(`  ! ${warning}`);
		return lines;
	};
}

function formatBytes(bytes: number): string {
	if (bytes < 1024) return `${bytes} B`;
	if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
	return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

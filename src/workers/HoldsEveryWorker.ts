import { formatWorkers } from '../present/index.js';
import type { FleetScope, WorkerLogFields } from './FleetScope.js';

/**
 * The {@link FleetScope} of a process that holds every worker: it runs the whole guild, so no
 * member is left to anyone, it may resume, and it keeps every journal file.
 */
export class HoldsEveryWorker implements FleetScope {
	readonly ids: readonly number[];

	constructor(readonly count: number) {
		this.ids = Array.from({ length: count }, (_, id) => id);
	}

	logFields(): WorkerLogFields {
		return {};
	}

	describeHere(): string {
		return `${this.count} workers`;
	}

	withWorkers(): string {
		return `, with ${formatWorkers(this.ids, this.count)}`;
	}

	leftToOthers(): string[] {
		return [];
	}

	whyNoResume(): undefined {
		return undefined;
	}

	elsewhere(): undefined {
		return undefined;
	}

	keepsJournalOf(): boolean {
		return true;
	}

	newJournalFiles(): ReadonlyArray<number | undefined> {
		return [undefined];
	}

	/** Any split: a fleet's files gathered here are each worker's of the job's own split. */
	journalsSplitOf(): boolean {
		return true;
	}

	/** Each worker of the job's split. */
	journaledWorkers(jobWorkers: number): number[] {
		return Array.from({ length: jobWorkers }, (_, id) => id);
	}

	neededToRestore(): readonly number[] {
		return [];
	}
}

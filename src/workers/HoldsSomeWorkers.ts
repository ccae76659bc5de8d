import { formatWorkers } from '../present/index.js';
import type { FleetScope, WorkerLogFields } from './FleetScope.js';

/**
 * The {@link FleetScope} of one process of a fleet split over several (hosts, or a Kubernetes
 * Indexed Job's pods): it changes only its workers' members, leaves the rest to the processes
 * holding them, resumes nothing (each process reruns its part), and keeps its workers' files.
 */
export class HoldsSomeWorkers implements FleetScope {
	readonly ids: readonly number[];

	constructor(
		readonly count: number,
		ids: readonly number[],
	) {
		this.ids = [...ids];
	}

	logFields(): WorkerLogFields {
		return { workerIds: [...this.ids], workerCount: this.count };
	}

	describeHere(others = 'the others run elsewhere'): string {
		return `${formatWorkers(this.ids, this.count)} here; ${others}`;
	}

	withWorkers(): string {
		return '';
	}

	leftToOthers(): string[] {
		const others = this.count - this.ids.length;
		return [
			`This process holds ${formatWorkers(this.ids, this.count)}: the members of the other ${others === 1 ? 'worker' : `${others} workers`} are left to the processes holding them.`,
		];
	}

	whyNoResume(): string {
		return 'this massnick holds only some of the workers, so it resumes nothing: a job split over processes is rerun in each (massnick run, or the Kubernetes Job)';
	}

	elsewhere<T>(look: () => T): T {
		return look();
	}

	keepsJournalOf(workerId: number | undefined): boolean {
		return workerId !== undefined && this.ids.includes(workerId);
	}

	newJournalFiles(): ReadonlyArray<number | undefined> {
		return this.ids;
	}

	journalsSplitOf(jobWorkers: number): boolean {
		return jobWorkers === this.count;
	}

	journaledWorkers(): number[] {
		return [...this.ids];
	}

	neededToRestore(missing: readonly number[]): readonly number[] {
		return missing;
	}
}

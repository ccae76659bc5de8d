/**
 * How much of the fleet this process holds, and what follows from it: every worker (one massnick
 * runs the whole guild), or some of them (a fleet split over processes, `WORKER_IDS`). Chosen
 * once when the `Fleet` is built (`chooseFleetScope`), as `@discordjs/ws` takes its
 * `shardIds`, so the boss, the command line and the engine ask it rather than compare counts.
 *
 * Its two strategies are `HoldsEveryWorker` and `HoldsSomeWorkers`.
 */
export interface FleetScope {
	/** N: how many workers split the guild, in this process and any others. */
	readonly count: number;
	/** The ids this process holds, lowest first. */
	readonly ids: readonly number[];

	/** The fields a log line adds beside `workers` to say which ones are here: none when every one is. */
	logFields(): WorkerLogFields;
	/**
	 * The workers here, for people: `10 workers`, or `workers 3–5 of 10 here; <others>`, where
	 * `others` says where the rest run (default `the others run elsewhere`).
	 */
	describeHere(others?: string): string;
	/** What a terminal's start line adds after whom the job is for: `, with all 10 workers`, or nothing. */
	withWorkers(): string;
	/** The lines that say whose members are left to other processes: none when this one holds them all. */
	leftToOthers(): string[];
	/** Why a restart resumes nothing here, for the log; `undefined` when a resume may run here. */
	whyNoResume(): string | undefined;
	/**
	 * What `look` finds about the workers other processes hold (their jobs, their journals);
	 * `undefined`, without looking, when this process holds every worker.
	 */
	elsewhere<T>(look: () => T): T | undefined;

	/**
	 * Whether a journal file of worker `workerId` (`undefined`: the whole-guild file) is this
	 * process's: one holding every worker keeps every file (its own layout, and a fleet's files
	 * gathered from its processes); one holding some keeps those of its workers, never another
	 * process's, nor a whole-guild file it could only partly undo.
	 */
	keepsJournalOf(workerId: number | undefined): boolean;
	/** The files a new job's journal starts with: the whole-guild one (`undefined`), or one per worker held. */
	newJournalFiles(): ReadonlyArray<number | undefined>;
	/**
	 * Whether this process may journal a job that split the guild between `jobWorkers` workers:
	 * one holding some workers only its own split (its members would be looked for in the wrong files).
	 */
	journalsSplitOf(jobWorkers: number): boolean;
	/** The workers whose files this process journals a job of `jobWorkers` in, when it has no whole-guild file. */
	journaledWorkers(jobWorkers: number): number[];
	/**
	 * Of the workers whose files are `missing`, those a restore here cannot do without: a process
	 * holding some workers needs each one's file; for one holding every worker, a fleet's file
	 * missing is another part's (each process named its part of a run itself).
	 */
	neededToRestore(missing: readonly number[]): readonly number[];
}

/** Which workers a log line is about, when they are not all here. */
export interface WorkerLogFields {
	readonly workerIds?: readonly number[];
	readonly workerCount?: number;
}

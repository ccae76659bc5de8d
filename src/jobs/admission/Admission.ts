import type { AdmissionRequest, Precondition, PreconditionName } from './Precondition.js';

/** Told of each precondition as it is checked: a seam for tests and logs, never a decision. */
export type PreconditionObserver = (name: PreconditionName, request: AdmissionRequest | undefined) => void;

/**
 * The one way a job is let in: an ordered list of preconditions (workers here, one job at a
 * time, who asked may do it, within their rank, the workers may do it), then the action's own
 * (`MassAction.preconditions`), each checked once per admission. The command admits its request
 * before anything is acknowledged, the job manager again at Start and at a resume, each against
 * the guild as it is then; the first that fails throws, naming itself in the error's context.
 */
export class Admission {
	readonly #preconditions: readonly Precondition[];
	readonly #observers = new Set<PreconditionObserver>();

	constructor(preconditions: readonly Precondition[], observe?: PreconditionObserver) {
		this.#preconditions = preconditions;
		if (observe) this.#observers.add(observe);
	}

	/** Tells `observer` of every precondition checked from now on; returns the unsubscribe. */
	observe(observer: PreconditionObserver): () => void {
		this.#observers.add(observer);
		return () => this.#observers.delete(observer);
	}

	#observe(name: PreconditionName, request: AdmissionRequest | undefined): void {
		for (const observer of this.#observers) observer(name, request);
	}

	/** The names, in the order they are checked (the action's own not included). */
	get names(): PreconditionName[] {
		return this.#preconditions.map((precondition) => precondition.name);
	}

	/**
	 * Checks what can be checked before the action is known (workers here, one job at a time): a
	 * command whose action comes from a journal (`/restore`) checks these before it acknowledges,
	 * then {@link admitAction} once it has read the journal.
	 *
	 * @throws {JobError} the first precondition that fails.
	 */
	admitWithoutAction(): void {
		for (const precondition of this.#preconditions) {
			if (precondition.needsAction) continue;
			this.#observe(precondition.name, undefined);
			precondition.check();
		}
	}

	/**
	 * Checks the rest, those that need the action, after {@link admitWithoutAction}.
	 *
	 * @throws {JobError} the first precondition that fails.
	 */
	admitAction(request: AdmissionRequest): void {
		this.#run(request, (precondition) => precondition.needsAction);
	}

	/**
	 * Checks every precondition, in order.
	 *
	 * @throws {JobError} the first precondition that fails.
	 */
	admit(request: AdmissionRequest): void {
		this.#run(request, () => true);
	}

	/**
	 * Checks one precondition again, where seconds of I/O lie between the admission and the first
	 * change (a restore loading a large journal): the guild may have changed meanwhile.
	 *
	 * @throws {JobError} when it fails now.
	 */
	recheck(name: PreconditionName, request: AdmissionRequest): void {
		const precondition = this.#preconditions.find((candidate) => candidate.name === name);
		if (!precondition) throw new RangeError(`no precondition ${name}`);
		this.#observe(name, request);
		precondition.check(request);
	}

	#run(request: AdmissionRequest, which: (precondition: Precondition) => boolean): void {
		for (const precondition of this.#preconditions) {
			if (!which(precondition)) continue;
			this.#observe(precondition.name, request);
			precondition.check(request);
		}
		for (const own of request.action.preconditions ?? []) {
			this.#observe(own.name, request);
			own.check(request);
		}
	}
}

import type { SandboxDispatch } from '../gateway/GatewayHost.js';

/** Fans the sandbox's gateway events out to whoever listens (the gateway server, tests). */
export class DispatchBus {
	readonly #listeners = new Set<(event: SandboxDispatch) => void>();

	/** Returns the unsubscribe function. */
	public subscribe(listener: (event: SandboxDispatch) => void): () => void {
		this.#listeners.add(listener);
		return () => this.#listeners.delete(listener);
	}

	public emit(event: SandboxDispatch): void {
		for (const listener of this.#listeners) listener(event);
	}
}

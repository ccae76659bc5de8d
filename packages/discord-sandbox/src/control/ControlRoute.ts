import type { ServerResponse } from 'node:http';
import type { SandboxContext } from '../SandboxContext.js';

/** What a control handler gets. */
export interface ControlRequest {
	ctx: SandboxContext;
	params: Record<string, string>;
	query: URLSearchParams;
	body: Record<string, unknown>;
	/** For handlers that stream their answer; they return `STREAMED` after writing it. */
	response: ServerResponse;
}

/** Returned by a handler that wrote the response itself. */
export const STREAMED = Symbol('streamed');

export interface ControlRoute {
	method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
	path: string;
	/** The JSON to answer with (status 200), or `STREAMED`. */
	handle(request: ControlRequest): unknown;
}

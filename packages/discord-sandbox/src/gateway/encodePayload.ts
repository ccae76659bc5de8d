import { GatewayOpcodes } from 'discord-api-types/v10';

/**
 * A dispatch frame `{op: 0, s, t, d}` around data that is already JSON.
 *
 * Fanning one event out to many sessions differs only in `s`, so the event's data is serialised
 * once and spliced into each session's frame instead of being stringified per session.
 */
export function encodeDispatch(sequence: number, eventName: string, dataJson: string): string {
	return `{"op":${GatewayOpcodes.Dispatch},"s":${sequence},"t":${JSON.stringify(eventName)},"d":${dataJson}}`;
}

/** A non-dispatch frame: Discord sends `s` and `t` as null on every opcode but 0. */
export function encodeControl(op: GatewayOpcodes, data: unknown): string {
	return JSON.stringify({ op, d: data ?? null, s: null, t: null });
}

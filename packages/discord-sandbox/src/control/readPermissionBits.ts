import { PermissionFlagsBits } from 'discord-api-types/v10';
import { ControlError } from './ControlError.js';

/**
 * A permission bitfield as the control API takes it: Discord's decimal string (`"134217728"`),
 * a number, or a list of flag names as discord-api-types spells them (`["ManageNicknames"]`).
 */
export function readPermissionBits(value: unknown, field: string): bigint {
	if (typeof value === 'string' && /^\d{1,20}$/.test(value)) return BigInt(value);
	if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
	if (Array.isArray(value)) {
		let bits = 0n;
		for (const name of value) {
			const bit = typeof name === 'string' ? (PermissionFlagsBits as Record<string, bigint>)[name] : undefined;
			if (bit === undefined) throw new ControlError(400, `${field}: unknown permission ${JSON.stringify(name)}; use names like "ManageNicknames"`);
			bits |= bit;
		}
		return bits;
	}
	throw new ControlError(400, `${field} must be a decimal string, a number, or a list of permission names`);
}

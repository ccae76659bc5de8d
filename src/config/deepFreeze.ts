/** A deeply read-only view of `T`. */
export type DeepReadonly<T> = T extends (infer U)[] ? readonly DeepReadonly<U>[] : T extends object ? { readonly [K in keyof T]: DeepReadonly<T[K]> } : T;

/**
 * Freezes `value` and everything reachable from it, so configuration read once cannot be changed
 * by accident later (a write throws in strict mode instead of silently changing behaviour).
 */
export function deepFreeze<T>(value: T): DeepReadonly<T> {
	if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
		Object.freeze(value);
		for (const child of Object.values(value)) deepFreeze(child);
	}
	return value as DeepReadonly<T>;
}

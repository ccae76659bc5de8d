/** How {@link cleanName} cleans; every field is optional. */
export interface CleanNameOptions {
	/** Cut the name to this many code points; defaults to Discord's 32 (`nickname.maxLength`). */
	readonly maxLength?: number;
	/**
	 * Whether leading digits hoist too, so `007 James` becomes `James` and `12345` has nothing left.
	 * Off by default: digits sort before letters, but `2Pac` and `47 Ronin` are names.
	 */
	readonly dehoistDigits?: boolean;
}

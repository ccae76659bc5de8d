/** A control API failure: answered as `{ "error": message }` with `status`. */
export class ControlError extends Error {
	public constructor(
		public readonly status: number,
		message: string,
	) {
		super(message);
		this.name = 'ControlError';
	}
}

/** Who ran a command, as the audit log and the journal name them. */
export interface Requester {
	readonly id: string;
	readonly tag: string;
}

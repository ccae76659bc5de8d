/** One of our bot applications (the boss or a worker): a bot user that is also a guild member. */
export interface SandboxApp {
	/** The application id, which is also the bot user's id. */
	readonly id: string;
	readonly name: string;
	readonly role: 'boss' | 'worker';
	/** The bot token (without `Bot `). Never log it. */
	readonly token: string;
	/** Index of the bot's member in the member store. */
	readonly memberIndex: number;
	/** Whether the GUILD_MEMBERS privileged intent is switched on in the (imaginary) developer portal. */
	membersIntent: boolean;
	/** A revoked token answers 401 on REST and 4004 on the gateway. */
	revoked: boolean;
}

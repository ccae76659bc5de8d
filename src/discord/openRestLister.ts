import { type RESTGetCurrentApplicationResult, REST, Routes } from 'discord.js';
import { ErrorCodes, JobError } from '../errors.js';
import { hasMembersIntent } from './membersIntent.js';
import { StartAborted, type WaitOutOptions, waitOutTransient } from './waitOutTransient.js';

export interface RestListerOptions {
	token: string;
	/** Names the token in errors: `LISTER_TOKEN`. */
	label: string;
	apiUrl?: string | undefined;
	restOffsetMs: number;
	restTimeoutMs: number;
	/** How its first read waits out Discord's passing failures (the changes' backoff, logged). */
	patience: Omit<WaitOutOptions, 'what'>;
}

/** A bot that may list the guild's members over REST, and its user id (a bot the jobs leave alone). */
export interface RestLister {
	readonly rest: REST;
	readonly userId: string;
}

/**
 * A REST client for a token that only lists members: no gateway connection, so no session to
 * start, nothing to identify with, and no second copy of a bot that may be connected elsewhere
 * (a fleet's pods can all list with the boss's token while the boss runs on). One request at
 * start, `GET /applications/@me`, checks the token and that its application has the Server
 * Members intent, which List Guild Members needs.
 *
 * @see https://discord.com/developers/docs/resources/application#get-current-application
 * @throws {JobError} `TOKEN_REJECTED`, `MEMBERS_INTENT_DISABLED` or `CONNECT_FAILED`, naming
 * the token by `label`, never by its value.
 */
export async function openRestLister(options: RestListerOptions): Promise<RestLister> {
	const rest = new REST({
		...(options.apiUrl ? { api: options.apiUrl } : {}),
		offset: options.restOffsetMs,
		timeout: options.restTimeoutMs,
		retries: 3,
	}).setToken(options.token);
	let application: RESTGetCurrentApplicationResult;
	try {
		application = (await waitOutTransient(() => rest.get(Routes.currentApplication()), {
			...options.patience,
			what: `${options.label} reading its application`,
		})) as RESTGetCurrentApplicationResult;
	} catch (error) {
		if (error instanceof StartAborted) throw error;
		if ((error as { status?: number }).status === 401) {
			throw new JobError(
				ErrorCodes.TokenRejected,
				`${options.label} was rejected by Discord: copy the token again (Developer Portal → the app → Bot → Reset Token).`,
			);
		}
		throw new JobError(ErrorCodes.ConnectFailed, `${options.label}'s bot could not reach Discord: ${(error as Error).message}`);
	}
	if (!hasMembersIntent(application.flags ?? 0)) {
		throw new JobError(
			ErrorCodes.MembersIntentDisabled,
			`${options.label}'s application (${application.name}) does not have the Server Members intent, so it may not list the guild's members: switch it on (Developer Portal → Bot → Privileged Gateway Intents), or give the boss's token, which has it.`,
		);
	}
	return { rest, userId: application.bot?.id ?? application.id };
}

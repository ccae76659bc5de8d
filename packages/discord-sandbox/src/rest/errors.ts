import { RESTJSONErrorCodes } from 'discord-api-types/v10';

/** What Discord says for each error code the sandbox sends (see docs/discord.md). */
const MESSAGES: Partial<Record<RESTJSONErrorCodes, string>> = {
	[RESTJSONErrorCodes.UnknownApplication]: 'Unknown Application',
	[RESTJSONErrorCodes.UnknownChannel]: 'Unknown Channel',
	[RESTJSONErrorCodes.UnknownGuild]: 'Unknown Guild',
	[RESTJSONErrorCodes.UnknownMember]: 'Unknown Member',
	[RESTJSONErrorCodes.UnknownMessage]: 'Unknown Message',
	[RESTJSONErrorCodes.UnknownRole]: 'Unknown Role',
	[RESTJSONErrorCodes.UnknownUser]: 'Unknown User',
	[RESTJSONErrorCodes.UnknownBan]: 'Unknown Ban',
	[RESTJSONErrorCodes.MaximumNumberOfNonGuildMemberBansHasBeenExceeded]: 'Maximum number of non-guild member bans has been exceeded',
	[RESTJSONErrorCodes.FailedToBanUsers]: 'Failed to ban users',
	[RESTJSONErrorCodes.UnknownWebhook]: 'Unknown Webhook',
	[RESTJSONErrorCodes.UnknownInteraction]: 'Unknown interaction',
	[RESTJSONErrorCodes.InteractionHasAlreadyBeenAcknowledged]: 'Interaction has already been acknowledged.',
	[RESTJSONErrorCodes.MissingAccess]: 'Missing Access',
	[RESTJSONErrorCodes.CannotEditMessageAuthoredByAnotherUser]: 'Cannot edit a message authored by another user',
	[RESTJSONErrorCodes.CannotSendAnEmptyMessage]: 'Cannot send an empty message',
	[RESTJSONErrorCodes.MissingPermissions]: 'Missing Permissions',
	[RESTJSONErrorCodes.InvalidRole]: 'Invalid Role',
	[RESTJSONErrorCodes.InvalidWebhookToken]: 'Invalid Webhook Token',
	[RESTJSONErrorCodes.RequestBodyContainsInvalidJSON]: 'The request body contains invalid JSON.',
};

const STATUS: Partial<Record<RESTJSONErrorCodes, number>> = {
	[RESTJSONErrorCodes.MissingAccess]: 403,
	[RESTJSONErrorCodes.MissingPermissions]: 403,
	[RESTJSONErrorCodes.CannotEditMessageAuthoredByAnotherUser]: 403,
	[RESTJSONErrorCodes.InteractionHasAlreadyBeenAcknowledged]: 400,
	[RESTJSONErrorCodes.CannotSendAnEmptyMessage]: 400,
	[RESTJSONErrorCodes.RequestBodyContainsInvalidJSON]: 400,
	[RESTJSONErrorCodes.InvalidRole]: 400,
	[RESTJSONErrorCodes.MaximumNumberOfNonGuildMemberBansHasBeenExceeded]: 400,
	[RESTJSONErrorCodes.FailedToBanUsers]: 400,
	[RESTJSONErrorCodes.InvalidWebhookToken]: 401,
};

/** One leaf of a 50035 body: `{"code": "BASE_TYPE_MAX_LENGTH", "message": "..."}`. */
export interface FieldError {
	code: string;
	message: string;
}

/**
 * An HTTP error with Discord's body. Route handlers throw it; the router turns it into the
 * response, so that discord.js raises a real `DiscordAPIError` with the right `code` and `status`.
 */
export class DiscordHttpError extends Error {
	public constructor(
		public readonly status: number,
		public readonly body: { message: string; code: number; errors?: unknown },
	) {
		super(body.message);
		this.name = 'DiscordHttpError';
	}

	/** The error Discord sends for a code (`Unknown Member` is 404, `Missing Permissions` 403...). */
	public static of(code: RESTJSONErrorCodes): DiscordHttpError {
		return new DiscordHttpError(STATUS[code] ?? 404, { message: MESSAGES[code] ?? 'Unknown error', code });
	}

	/** 401 for a missing, malformed or revoked token. */
	public static unauthorized(): DiscordHttpError {
		return new DiscordHttpError(401, { message: '401: Unauthorized', code: RESTJSONErrorCodes.GeneralError });
	}

	public static notFound(): DiscordHttpError {
		return new DiscordHttpError(404, { message: '404: Not Found', code: RESTJSONErrorCodes.GeneralError });
	}

	public static methodNotAllowed(): DiscordHttpError {
		return new DiscordHttpError(405, { message: '405: Method Not Allowed', code: RESTJSONErrorCodes.GeneralError });
	}

	/**
	 * 400/50035 with errors nested like the request (`{"nick": {"_errors": [...]}}`), which
	 * discord.js flattens into `nick[BASE_TYPE_MAX_LENGTH]: ...`.
	 *
	 * @see {@link https://discord.com/developers/docs/reference#error-messages}
	 */
	public static invalidFormBody(errors: Record<string, unknown>): DiscordHttpError {
		return new DiscordHttpError(400, { code: RESTJSONErrorCodes.InvalidFormBodyOrContentType, errors, message: 'Invalid Form Body' });
	}

	/** 50035 for one field: `field` may be a dotted path (`options.0.name`). */
	public static invalidField(field: string, error: FieldError): DiscordHttpError {
		return DiscordHttpError.invalidFields([[field, error]]);
	}

	/**
	 * 50035 for every field that failed at once, as Discord reports them: each dotted path
	 * (`components.0.components.1.custom_id`) becomes nested objects, with the field's errors
	 * under `_errors`.
	 */
	public static invalidFields(fields: ReadonlyArray<readonly [string, FieldError]>): DiscordHttpError {
		const errors: Record<string, unknown> = {};
		for (const [field, error] of fields) {
			let node = errors;
			for (const key of field.split('.')) node = (node[key] ??= {}) as Record<string, unknown>;
			((node._errors ??= []) as FieldError[]).push(error);
		}
		return DiscordHttpError.invalidFormBody(errors);
	}
}

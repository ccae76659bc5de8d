import { RESTJSONErrorCodes, type APIApplication, type ApplicationFlags } from 'discord-api-types/v10';
import { createHash } from 'node:crypto';
import { applicationFlags } from '../state/applicationFlags.js';
import { DiscordHttpError } from './errors.js';
import type { Route } from './Route.js';

/** The current bot user, its application, and users by id. */
export const userRoutes: Route[] = [
	{
		method: 'GET',
		path: '/users/@me',
		bucket: 'default',
		auth: 'bot',
		handle({ ctx: { state }, app }) {
			return { status: 200, body: { ...state.userJson(app!.memberIndex), verified: true, mfa_enabled: false, locale: 'en-US', email: null } };
		},
	},
	{
		method: 'GET',
		path: '/users/:user',
		bucket: 'default',
		auth: 'bot',
		handle({ ctx: { state }, params }) {
			const index = state.members.lowerBound(BigInt(params.user!));
			if (index >= state.members.length || state.members.idAt(index) !== BigInt(params.user!)) throw DiscordHttpError.of(RESTJSONErrorCodes.UnknownUser);
			return { status: 200, body: state.userJson(index) };
		},
	},
	{
		method: 'GET',
		path: '/applications/@me',
		bucket: 'default',
		auth: 'bot',
		handle({ ctx: { state }, app }) {
			const bot = state.userJson(app!.memberIndex);
			const ownerIndex = state.members.indexOf(BigInt(state.guild.ownerId));
			const flags = applicationFlags(app!);
			// `type`, `explicit_content_filter` and `eligible_oauth2_scopes` are sent by Discord and
			// required by its spec (PrivateApplicationResponse), but not in APIApplication.
			const application: APIApplication & { type: null; explicit_content_filter: number; eligible_oauth2_scopes: string[] } = {
				id: app!.id,
				name: app!.name,
				icon: null,
				description: '',
				type: null,
				bot_public: false,
				bot_require_code_grant: false,
				bot,
				owner: state.userJson(ownerIndex),
				summary: '',
				verify_key: createHash('sha256').update(`verify:${app!.id}`).digest('hex'),
				team: null,
				flags: flags as ApplicationFlags,
				flags_new: String(flags),
				approximate_guild_count: 1,
				approximate_user_install_count: 0,
				approximate_user_authorization_count: 0,
				redirect_uris: [],
				interactions_endpoint_url: null,
				role_connections_verification_url: null,
				explicit_content_filter: 0,
				eligible_oauth2_scopes: ['bot', 'applications.commands'],
			};
			return { status: 200, body: application };
		},
	},
];

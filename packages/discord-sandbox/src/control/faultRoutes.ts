import { GatewayCloseCodes } from 'discord-api-types/v10';
import type { SandboxContext } from '../SandboxContext.js';
import type { SandboxApp } from '../state/SandboxApp.js';
import { ControlError } from './ControlError.js';
import type { ControlRoute } from './ControlRoute.js';

function faultState(ctx: SandboxContext): Record<string, unknown> {
	return {
		latencyMs: ctx.faults.latencyMs,
		errorRate: ctx.faults.errorRate,
		sharedWriteLimit: ctx.faults.sharedWriteLimit,
		apps: ctx.state.apps.map((app) => ({ id: app.id, name: app.name, membersIntent: app.membersIntent, revoked: app.revoked })),
	};
}

function requireApp(ctx: SandboxContext, appId: unknown, field: string): SandboxApp {
	const app = typeof appId === 'string' ? ctx.state.appById(appId) : undefined;
	if (!app) throw new ControlError(404, `${field}: unknown application ${String(appId)}; known: ${ctx.state.apps.map((a) => a.id).join(', ')}`);
	return app;
}

function optionalAppId(ctx: SandboxContext, value: unknown, field: string): { appId?: string } {
	const appId = value && typeof value === 'object' && 'appId' in value ? value.appId : undefined;
	return appId === undefined ? {} : { appId: requireApp(ctx, appId, field).id };
}

/** Switching trouble on and off; every call answers with the resulting fault state. */
export const faultRoutes: ControlRoute[] = [
	{
		method: 'GET',
		path: '/faults',
		handle: ({ ctx }) => faultState(ctx),
	},
	{
		method: 'POST',
		path: '/faults',
		handle({ ctx, body }) {
			const { faults, state } = ctx;
			if (body.resetFaults === true) {
				faults.reset();
				for (const app of state.apps) {
					app.membersIntent = app.role === 'boss' || state.options.workerMembersIntent;
					app.revoked = false;
				}
			}
			if (body.latencyMs !== undefined) {
				if (typeof body.latencyMs !== 'number' || !(body.latencyMs >= 0)) throw new ControlError(400, 'latencyMs must be 0 or more');
				faults.latencyMs = body.latencyMs;
			}
			if (body.errorRate !== undefined) {
				if (typeof body.errorRate !== 'number' || !(body.errorRate >= 0 && body.errorRate <= 1)) throw new ControlError(400, 'errorRate must be from 0 to 1');
				faults.errorRate = body.errorRate;
			}
			if (body.sharedWriteLimit !== undefined) {
				const limit = body.sharedWriteLimit as { limit?: unknown; windowMs?: unknown } | null;
				if (limit === null) faults.sharedWriteLimit = null;
				else if (typeof limit.limit === 'number' && limit.limit >= 1 && typeof limit.windowMs === 'number' && limit.windowMs > 0) {
					faults.sharedWriteLimit = { limit: Math.floor(limit.limit), windowMs: limit.windowMs };
				} else throw new ControlError(400, 'sharedWriteLimit must be {limit, windowMs} or null');
			}
			if (body.membersIntent !== undefined) {
				const { appId, enabled } = body.membersIntent as { appId?: unknown; enabled?: unknown };
				if (typeof enabled !== 'boolean') throw new ControlError(400, 'membersIntent.enabled must be true or false');
				requireApp(ctx, appId, 'membersIntent').membersIntent = enabled;
			}
			if (body.revokeToken !== undefined) {
				const app = requireApp(ctx, (body.revokeToken as { appId?: unknown }).appId, 'revokeToken');
				app.revoked = true;
				ctx.gateway?.closeConnections({ appId: app.id, code: GatewayCloseCodes.AuthenticationFailed });
			}
			let closed: number | undefined;
			let reconnected: number | undefined;
			if (body.closeGateway !== undefined) {
				const code = (body.closeGateway as { code?: unknown } | null)?.code;
				closed =
					ctx.gateway?.closeConnections({ ...optionalAppId(ctx, body.closeGateway, 'closeGateway'), ...(typeof code === 'number' ? { code } : {}) }) ?? 0;
			}
			if (body.reconnect !== undefined) reconnected = ctx.gateway?.requestReconnect(optionalAppId(ctx, body.reconnect, 'reconnect')) ?? 0;
			ctx.log.info({ faults: faultState(ctx) }, 'faults changed');
			return { ...faultState(ctx), ...(closed === undefined ? {} : { closed }), ...(reconnected === undefined ? {} : { reconnected }) };
		},
	},
];

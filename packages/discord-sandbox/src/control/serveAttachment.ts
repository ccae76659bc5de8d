import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SandboxState } from '../state/SandboxState.js';

/**
 * `GET /ephemeral-attachments/{channel}/{attachment}/{filename}?ex=&is=&hm=`: the bytes of a file
 * attached to a slash command, as Discord's CDN serves them, with its `Content-Type` and
 * `Content-Length`. No token is needed (the signature is the key); a URL whose signature does not
 * hold, that expired, or that names no file gets the CDN's 404 page, whose text is the one Discord
 * shows for an expired link.
 */
export async function serveAttachment(state: SandboxState, request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
	request.resume();
	if (request.method !== 'GET' && request.method !== 'HEAD') {
		response.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
		response.end('Method Not Allowed');
		return;
	}
	const stored = state.attachments.serve(url.pathname, url.searchParams);
	if (!stored) {
		response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
		response.end('This content is no longer available.');
		return;
	}
	response.writeHead(200, { 'Content-Type': stored.contentType, 'Content-Length': String(stored.bytes.byteLength) });
	response.end(request.method === 'HEAD' ? undefined : stored.bytes);
}

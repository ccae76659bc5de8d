import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { APIAttachment } from 'discord-api-types/v10';

/** One file a member attached to a slash command, as the CDN keeps it. */
export interface StoredAttachment {
	readonly id: string;
	readonly channelId: string;
	readonly filename: string;
	readonly contentType: string;
	readonly bytes: Buffer;
	/** When its signed URL was issued and until when it is valid, Unix ms. */
	readonly issuedAt: number;
	readonly expiresAt: number;
	/** Times the bytes were served. */
	downloads: number;
}

/** An attachment as `GET /_sandbox/attachments` shows it: what was uploaded, and how often it was fetched. */
export interface AttachmentJson {
	id: string;
	filename: string;
	size: number;
	contentType: string;
	url: string;
	downloads: number;
}

/**
 * How long a signed attachment URL stays valid. Discord does not publish the figure; in the
 * ephemeral-attachment URLs of slash commands seen in public code, `ex` − `is` is 86,400 s.
 */
export const ATTACHMENT_URL_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** Where the sandbox serves attachments, as Discord's CDN does under `cdn.discordapp.com`. */
export const ATTACHMENT_PATH = '/ephemeral-attachments/';

/**
 * The files members attached to slash commands (an ATTACHMENT option), and the signed URLs they
 * are served at: the sandbox's own host stands for Discord's CDN. A URL carries Discord's three
 * parameters, `ex` (when it expires, hex seconds), `is` (when it was issued) and `hm` (a signature
 * over the path and both), and is served only while valid and unchanged.
 *
 * @see {@link https://discord.com/developers/docs/reference#signed-attachment-cdn-urls}
 */
export class AttachmentStore {
	readonly #byId = new Map<string, StoredAttachment>();
	readonly #secret = randomBytes(32);
	/** The sandbox's own origin (`http://127.0.0.1:PORT`), set once it listens. */
	public origin = 'http://127.0.0.1';

	public constructor(private readonly now: () => number) {}

	/** Keeps a file and returns it as Discord's attachment object, with its signed URLs. */
	public add(file: { id: string; channelId: string; filename: string; contentType: string; bytes: Buffer }): APIAttachment {
		const issuedAt = this.now();
		const stored: StoredAttachment = { ...file, issuedAt, expiresAt: issuedAt + ATTACHMENT_URL_LIFETIME_MS, downloads: 0 };
		this.#byId.set(file.id, stored);
		const url = this.#signedUrl(stored);
		return {
			id: file.id,
			filename: file.filename,
			size: file.bytes.byteLength,
			url,
			proxy_url: url,
			content_type: file.contentType,
			ephemeral: true,
		};
	}

	public get(id: string): StoredAttachment | undefined {
		return this.#byId.get(id);
	}

	/** Every file kept, oldest first, as the control API shows them (the bytes left out). */
	public list(): AttachmentJson[] {
		return [...this.#byId.values()].map((stored) => ({
			id: stored.id,
			filename: stored.filename,
			size: stored.bytes.byteLength,
			contentType: stored.contentType,
			url: this.#signedUrl(stored),
			downloads: stored.downloads,
		}));
	}

	/**
	 * The file a CDN request names, if its signature holds and it has not expired: `path` is the
	 * request's path (`/ephemeral-attachments/{channel}/{id}/{filename}`), `query` its parameters.
	 */
	public serve(path: string, query: URLSearchParams): StoredAttachment | undefined {
		const [channelId, id, filename] = path.slice(ATTACHMENT_PATH.length).split('/');
		const stored = id === undefined ? undefined : this.#byId.get(id);
		if (!stored || stored.channelId !== channelId || filename !== encodeURIComponent(stored.filename)) return undefined;
		const ex = query.get('ex') ?? '';
		const is = query.get('is') ?? '';
		const given = Buffer.from(query.get('hm') ?? '', 'hex');
		const expected = this.#sign(path, ex, is);
		if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
		if (this.now() >= Number.parseInt(ex, 16) * 1000) return undefined;
		stored.downloads++;
		return stored;
	}

	#signedUrl(stored: StoredAttachment): string {
		const path = `${ATTACHMENT_PATH}${stored.channelId}/${stored.id}/${encodeURIComponent(stored.filename)}`;
		const ex = Math.floor(stored.expiresAt / 1000).toString(16);
		const is = Math.floor(stored.issuedAt / 1000).toString(16);
		return `${this.origin}${path}?ex=${ex}&is=${is}&hm=${this.#sign(path, ex, is).toString('hex')}&`;
	}

	#sign(path: string, ex: string, is: string): Buffer {
		return createHmac('sha256', this.#secret).update(`${path}?ex=${ex}&is=${is}`).digest();
	}
}

import type { NotificationsService, Notification } from '../../newsroom/notifications/service.js';
import type { ReaderNotificationsService } from '../../readers/notifications/service.js';
import type { NamesService } from '../../readers/names/service.js';
import { t, type Lang } from '../words/index.js';
import { storyHref } from './links.js';
import { ATOM_NS, attributes, line } from './syndication.js';

/** A notification as the page and the feed show it: with the replier's display name and whether it is new. */
export type ShownNotification = Notification & { unread: boolean; name?: string | undefined };

/**
 * A reader's notifications, put together from the contexts that hold them: their saved stories (readers), what
 * happened around them (newsroom), when they last looked and their feed's token (readers), and the repliers'
 * display names (readers).
 */
export function createSiteNotifications(deps: {
  saved: (actorId: string) => Promise<readonly string[]>;
  around: NotificationsService['around'];
  countSince: NotificationsService['countSince'];
  state: ReaderNotificationsService;
  names: Pick<NamesService, 'namesOf'>;
  baseUrl: string;
}) {
  const { saved, around, countSince, state, names, baseUrl } = deps;

  async function list(actorId: string): Promise<ShownNotification[]> {
    const [items, seenAt] = await Promise.all([saved(actorId).then((ids) => around(actorId, ids)), state.seenAt(actorId)]);
    const repliers = [...new Set(items.flatMap((n) => (n.kind === 'reply' ? [n.actorId] : [])))];
    const named = repliers.length ? await names.namesOf(repliers) : new Map<string, string>();
    return items.map((n) => ({
      ...n,
      unread: !seenAt || n.at > seenAt,
      ...(n.kind === 'reply' ? { name: named.get(n.actorId) } : {}),
    }));
  }

  return {
    list,
    /** How many notifications came since the reader last looked (the masthead's count, on every page: a count query). */
    async unread(actorId: string): Promise<number> {
      const [ids, seenAt] = await Promise.all([saved(actorId), state.seenAt(actorId)]);
      return countSince(actorId, ids, seenAt);
    },
    markSeen: (actorId: string) => state.markSeen(actorId),
    feedToken: (actorId: string) => state.feedToken(actorId),
    renewFeedToken: (actorId: string) => state.renewFeedToken(actorId),

    /** The private Atom document of a token's holder; null for a token nobody holds. */
    async atom(token: string, lang: Lang): Promise<string | null> {
      const actorId = await state.holderOf(token);
      if (!actorId) return null;
      const items = await list(actorId);
      const self = `${baseUrl}/notifications/${token}.atom?lang=${lang}`;
      const lines = [
        '<?xml version="1.0" encoding="utf-8"?>',
        `<feed${attributes({ xmlns: ATOM_NS, 'xml:lang': lang })}>`,
        line(1, 'id', `${baseUrl}/notifications/${actorId}`),
        line(1, 'title', t(lang, 'site.notifications.feedTitle')),
        line(1, 'updated', new Date(items[0]?.at ?? 0).toISOString()),
        line(1, 'link', null, { rel: 'self', href: self }),
      ];
      for (const n of items) {
        const link = `${baseUrl}${storyHref(n.storyId, lang)}${n.kind === 'reply' ? `#comment-${n.id}` : ''}`;
        lines.push(
          '    <entry>',
          line(2, 'title', sentence(n, lang), { type: 'text' }),
          line(2, 'id', `${baseUrl}/notifications/${n.kind}/${n.id}`),
          line(2, 'link', null, { href: link }),
          line(2, 'updated', n.at.toISOString()),
          ...(n.kind === 'reply' ? [] : [line(2, 'summary', n.note, { type: 'text' })]),
          '    </entry>',
        );
      }
      lines.push('</feed>', '');
      return lines.join('\n');
    },
  };
}

export type SiteNotifications = ReturnType<typeof createSiteNotifications>;

/** A notification in one sentence of plain text (the feed's entry titles; the page builds its own with links). */
function sentence(n: ShownNotification, lang: Lang): string {
  if (n.kind === 'reply')
    return t(lang, 'site.notifications.reply', { name: n.name ?? t(lang, 'site.notifications.someone'), title: n.title });
  return t(lang, `site.notifications.${n.kind}`, { title: n.title, because: n.because[0] ?? 'saved' });
}

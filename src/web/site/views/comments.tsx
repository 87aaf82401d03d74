import { t, type Lang } from '../../words/index.js';
import type { CommentsResponse } from '../../../newsroom/comments/schemas.js';
import { COMMENT_EDIT_WINDOW_MS } from '../../../newsroom/comments/service.js';
import { href } from '../links.js';
import { useVisitor } from '../visitor.js';
import { PostForm } from './forms.js';
import { PersonName, When } from './parts.js';

type Comment = CommentsResponse['items'][number];

/** Replies indent up to this depth; deeper replies stay at it (a narrow screen keeps room for the text). */
export const MAX_THREAD_DEPTH = 4;

/** A comment's own anchor on the story page (`#comment-<id>`: My activity and profiles link to it). */
export const commentAnchor = (id: string) => `comment-${id}`;

/**
 * The page's comments as threads: each comment with its replies under it, oldest first. A reply whose parent is
 * not on this page (a later page of a long list) starts a thread of its own.
 */
function threads(items: Comment[]) {
  const ids = new Set(items.map((c) => c.id));
  const children = new Map<string, Comment[]>();
  const roots: Comment[] = [];
  for (const c of items) {
    if (c.parentId && ids.has(c.parentId)) {
      const list = children.get(c.parentId) ?? [];
      list.push(c);
      children.set(c.parentId, list);
    } else roots.push(c);
  }
  return { roots, children };
}

/** How many replies a comment has, all levels down (the thread's collapse says it). */
function replyCount(id: string, children: Map<string, Comment[]>): number {
  let count = 0;
  const stack = [...(children.get(id) ?? [])];
  while (stack.length > 0) {
    const c = stack.pop()!;
    count += 1;
    stack.push(...(children.get(c.id) ?? []));
  }
  return count;
}

interface ThreadContext {
  lang: Lang;
  storyPath: string;
  children: Map<string, Comment[]>;
  /** The logged-in reader's account id (null: anonymous, no forms). */
  me: string | null;
  now: number;
}

/** The author's own tools on their comment: edit (inside the window), delete after a confirmation. */
function OwnTools(props: { ctx: ThreadContext; comment: Comment; back: string }) {
  const { ctx, comment } = props;
  const { lang } = ctx;
  const action = `${ctx.storyPath}/comments/${encodeURIComponent(comment.id)}`;
  const editable = ctx.now - Date.parse(comment.createdAt) <= COMMENT_EDIT_WINDOW_MS;
  return (
    <>
      {editable ? (
        <details class="comment-tool">
          <summary>{t(lang, 'account.comment.edit')}</summary>
          <PostForm action={`${action}/edit`} lang={lang} back={props.back}>
            <label for={`edit-${comment.id}`}>{t(lang, 'account.comment.editLabel')}</label>
            <textarea id={`edit-${comment.id}`} name="body" rows={4} maxLength={5000} required>
              {comment.body}
            </textarea>
            <p class="meta">{t(lang, 'account.comment.editNote')}</p>
            <button type="submit">{t(lang, 'account.comment.editSubmit')}</button>
          </PostForm>
        </details>
      ) : null}
      <details class="comment-tool">
        <summary>{t(lang, 'account.comment.delete')}</summary>
        <PostForm action={`${action}/delete`} lang={lang} back={props.back}>
          <p>{t(lang, 'account.comment.deleteWhat')}</p>
          <input type="hidden" name="confirm" value="1" />
          <button type="submit">{t(lang, 'account.comment.deleteSubmit')}</button>
        </PostForm>
      </details>
    </>
  );
}

function CommentItem(props: { ctx: ThreadContext; comment: Comment; depth: number }) {
  const { ctx, comment: c, depth } = props;
  const { lang } = ctx;
  const anchor = commentAnchor(c.id);
  const back = `${href(ctx.storyPath, lang)}#${anchor}`;
  const replies = ctx.children.get(c.id) ?? [];
  const mine = ctx.me !== null && c.actorId === ctx.me && !c.deleted;
  return (
    <li id={anchor} class={`comment depth-${Math.min(depth, MAX_THREAD_DEPTH)}`}>
      {c.deleted ? (
        <p class="meta comment-deleted">
          <em>{t(lang, 'site.comment.deleted')}</em> · <When lang={lang} at={c.createdAt} /> ·{' '}
          <a href={`#${anchor}`} aria-label={t(lang, 'site.comment.linkLabel')}>
            {t(lang, 'site.comment.link')}
          </a>
        </p>
      ) : (
        <>
          <p class="meta">
            <PersonName lang={lang} name={c.authorName} />
            {c.verified ? ` · ${t(lang, 'site.verifiedReader')}` : ''} · <When lang={lang} at={c.createdAt} />
            {c.editedAt ? ` · ${t(lang, 'site.comment.edited')}` : ''} ·{' '}
            <a href={`#${anchor}`} aria-label={t(lang, 'site.comment.linkLabel')}>
              {t(lang, 'site.comment.link')}
            </a>
          </p>
          <p class="comment-body">{c.body}</p>
          {ctx.me === null ? null : (
            <div class="comment-tools">
              <details class="comment-tool">
                <summary>{t(lang, 'site.comment.reply')}</summary>
                <PostForm action={`${ctx.storyPath}/comment`} lang={lang} back={back}>
                  <input type="hidden" name="parentId" value={c.id} />
                  <label for={`reply-${c.id}`}>{t(lang, 'site.comment.replyLabel')}</label>
                  <textarea id={`reply-${c.id}`} name="body" rows={3} maxLength={5000} required />
                  <button type="submit">{t(lang, 'site.comment.replySubmit')}</button>
                </PostForm>
              </details>
              {mine ? <OwnTools ctx={ctx} comment={c} back={back} /> : null}
            </div>
          )}
        </>
      )}
      {replies.length === 0 ? null : depth + 1 >= MAX_THREAD_DEPTH ? (
        // at the deepest indent, a reply's own replies follow it at the same depth (flattened, in order)
        <ol class="list thread">
          {flatten(replies, ctx.children).map((r) => (
            <CommentItem ctx={{ ...ctx, children: new Map() }} comment={r} depth={depth + 1} />
          ))}
        </ol>
      ) : (
        <details class="thread-replies" open>
          <summary>{t(lang, 'site.comment.replies', { count: replyCount(c.id, ctx.children) })}</summary>
          <ol class="list thread">
            {replies.map((r) => (
              <CommentItem ctx={ctx} comment={r} depth={depth + 1} />
            ))}
          </ol>
        </details>
      )}
    </li>
  );
}

/** Replies and their replies, all levels down, in thread order (depth first, oldest first). */
function flatten(replies: Comment[], children: Map<string, Comment[]>): Comment[] {
  const out: Comment[] = [];
  const walk = (list: Comment[]) => {
    for (const r of list) {
      out.push(r);
      walk(children.get(r.id) ?? []);
    }
  };
  walk(replies);
  return out;
}

/**
 * The story's comments as threads: replies indented under their parent (up to MAX_THREAD_DEPTH), each thread's
 * replies in a collapse, each comment with its own anchor. The logged-in reader gets "Reply" on every comment
 * and "Edit" (for 15 minutes) and "Delete" (after a confirmation naming what happens) on their own. A deleted
 * comment stays as a marker, so its replies keep their place. Everything works without scripts.
 */
export function Comments(props: { lang: Lang; comments: CommentsResponse; total: number; storyPath: string; now: number }) {
  const { lang } = props;
  const visitor = useVisitor();
  const { roots, children } = threads(props.comments.items);
  const ctx: ThreadContext = { lang, storyPath: props.storyPath, children, me: visitor.reader?.accountId ?? null, now: props.now };
  return (
    <section aria-labelledby="comments">
      <h2 id="comments">{t(lang, 'site.count.comments', { count: props.total })}</h2>
      {roots.length === 0 ? (
        <p>{t(lang, 'site.comments.empty')}</p>
      ) : (
        <ol class="list comments">
          {roots.map((c) => (
            <CommentItem ctx={ctx} comment={c} depth={0} />
          ))}
        </ol>
      )}
    </section>
  );
}

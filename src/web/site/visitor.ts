import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Flash, SiteReader } from './session.js';

/** How people log in: World ID's IDKit, or (locally, with the dev verifier) the labelled development login. */
export type LoginMode = 'world-id' | 'dev';

/**
 * Who is looking at a page, for the parts of it that depend on them (the masthead's account links, the forms of
 * a story). A public page's visitor is anonymous: that is what makes it one cached body for everyone.
 */
export interface Visitor {
  reader: SiteReader | null;
  /** The CSRF token of a personal page's forms, bound to this visitor (null on a public page). */
  csrf: string | null;
  flash: Flash | null;
  login: LoginMode;
  /** World ID's app id for IDKit (WORLDID_APP_ID), when people log in with World ID. */
  worldIdAppId: string | null;
  /** The logged-in person is on an allowlist that opens the console. */
  staff?: boolean;
  /** How many things wait for this console user in the areas they may open (unknown when not counted). */
  waiting?: number | undefined;
  /** How many of the reader's notifications came since they last looked (unknown when not counted). */
  unread?: number | undefined;
}

export const ANONYMOUS: Visitor = { reader: null, csrf: null, flash: null, login: 'world-id', worldIdAppId: null };

export const VisitorContext = createContext<Visitor>(ANONYMOUS);

export const useVisitor = () => useContext(VisitorContext);

/**
 * The instant a page is rendered at (the site's clock), from which its times are written as "3 hours ago". A page
 * served later from the read cache still says what it said then; the page's script rewrites them on load.
 */
export const PageNow = createContext<number | null>(null);

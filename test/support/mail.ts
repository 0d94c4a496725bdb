import { stack } from './stack';

/** An e-mail as the local SES (aws-ses-v2-local) keeps it in its store. */
export interface StoredMail {
  destination: { to: string[] };
  subject: string;
  body: { text?: string; html?: string };
  /** Headers the sender set (e.g. List-Unsubscribe). */
  headers?: { name: string; value: string }[];
  at: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every e-mail the local SES holds for an address (any case), oldest first. */
export const mailTo = async (address: string): Promise<StoredMail[]> => {
  const response = await fetch(`${stack().endpoints.ses}/store`);
  const { emails } = (await response.json()) as { emails: StoredMail[] };
  return emails.filter((mail) => mail.destination.to.some((to) => to.toLowerCase() === address.toLowerCase()));
};

/** The e-mails to an address, waiting briefly until there are at least `count`; what is there by then. */
export const mailsTo = async (address: string, count = 1, timeoutMs = 5_000): Promise<StoredMail[]> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = await mailTo(address);
    if (mails.length >= count || Date.now() > deadline) return mails;
    await sleep(100);
  }
};

/** Waits for an e-mail to `address` that `matches`; fails the test when none arrives in time. */
export const waitForMail = async (
  address: string,
  matches: (mail: StoredMail) => boolean,
  timeoutMs = 15_000,
): Promise<StoredMail> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await mailTo(address)).find(matches);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`No matching e-mail to ${address} within ${timeoutMs} ms`);
    await sleep(200);
  }
};

/** Subject, text and HTML of an e-mail, for assertions on what it says. */
export const mailText = (mail: StoredMail) => `${mail.subject}\n${mail.body.text ?? ''}\n${mail.body.html ?? ''}`;

/**
 * The 6-digit code of the newest e-mail to an address, once it holds at least `count` e-mails: what a person
 * would read in their inbox (sign-up, resend, forgot password, e-mail change).
 */
export const codeFromMail = async (address: string, count = 1, timeoutMs = 10_000): Promise<string> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = await mailTo(address);
    const newest = mails.at(-1);
    const code =
      mails.length >= count ? /\b(\d{6})\b/.exec(newest?.body.text ?? newest?.body.html ?? '')?.[1] : undefined;
    if (code) return code;
    if (Date.now() > deadline) throw new Error(`No e-mail #${count} with a code to ${address}`);
    await sleep(100);
  }
};

import { stack } from './stack';

interface StoredMail {
  destination: { to: string[] };
  subject: string;
  body: { text?: string; html?: string };
  at: number;
}

/** Every e-mail the local SES (aws-ses-v2-local's store) holds for an address, oldest first. */
export const mailTo = async (address: string): Promise<StoredMail[]> => {
  const response = await fetch(`${stack().endpoints.ses}/store`);
  const { emails } = (await response.json()) as { emails: StoredMail[] };
  return emails.filter((mail) => mail.destination.to.some((to) => to.toLowerCase() === address.toLowerCase()));
};

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
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

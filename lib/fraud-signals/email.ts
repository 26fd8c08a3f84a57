// One mailbox, one text: the form two email addresses are compared in by the self_referral signal. A person who
// buys through their own code with "Jane.Doe+promo@googlemail.com" while signed up as "janedoe@gmail.com" reaches
// the same inbox, so both normalise to "janedoe@gmail.com".
//  - case: the whole address is lowercased (mail providers treat local parts case-insensitively in practice);
//  - `+tag`: everything from the first `+` in the local part is dropped, for every domain (sub-addressing: Gmail,
//    Outlook, iCloud, Fastmail, Proton and most hosts deliver `name+tag` to `name`);
//  - Gmail: dots in the local part are dropped, and googlemail.com is gmail.com (Google's own rule).
// False positives: on a host without sub-addressing `a+b@` and `a@` can be two people (rare, and the signal asks a
// person to decide); dots are kept outside Gmail, where `j.doe` and `jdoe` are different mailboxes.

const GMAIL_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

/** The comparable form of an email address, or null when the text is not an address (`local@domain`). */
export function normalizeEmail(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const text = raw.trim().toLowerCase();
  const at = text.lastIndexOf('@');
  if (at <= 0 || at === text.length - 1 || /\s/.test(text)) return null;
  let local = text.slice(0, at);
  let domain = text.slice(at + 1).replace(/\.$/, '');
  local = local.split('+')[0]!;
  if (GMAIL_DOMAINS.has(domain)) {
    local = local.replaceAll('.', '');
    domain = 'gmail.com';
  }
  return local ? `${local}@${domain}` : null;
}

/** Whether two addresses reach the same mailbox by the rules above (a missing or malformed one matches nothing). */
export function sameMailbox(a: string | null | undefined, b: string | null | undefined): boolean {
  const x = normalizeEmail(a);
  return x !== null && x === normalizeEmail(b);
}

// The join page's own words in the languages it speaks. Campaign text comes from the campaign (and its i18n copy);
// these are only the page chrome. Plain text: the page escapes every value it renders.

export const JOIN_PAGE_LANGUAGES = ['en', 'de', 'es', 'fr'] as const;
export type JoinPageLanguage = (typeof JOIN_PAGE_LANGUAGES)[number];

export interface JoinPageText {
  title: (campaign: string) => string;
  commission: (percentage: string) => string;
  intro: string;
  invitationNeeded: string;
  fields: { name: string; email: string; social_handle: string; follower_count: string; code: string };
  codeHint: string;
  submit: string;
  /** Shown by the script after the answer. */
  joined: string;
  alreadyJoined: string;
  shareHint: string;
  /** The success screen (filled by the script). */
  done: { link: string; code: string; copy: string; copied: string; copyByHand: string; qr: string; portal: string; mailed: string };
  invalid: string;
  errors: { 403: string; 404: string; 409: string; 429: string };
  failed: string;
  notOpenTitle: string;
  notOpen: string;
}

const en: JoinPageText = {
  title: (c) => `Join ${c}`,
  commission: (p) => `${p}% commission on every purchase made with your code`,
  intro: 'Become a creator for this campaign: fill in the form and get your personal referral code.',
  invitationNeeded: 'This campaign is by invitation only: open the link from your invitation to join.',
  fields: { name: 'Name', email: 'Email', social_handle: 'Social handle', follower_count: 'Followers', code: 'Preferred code (optional)' },
  codeHint: '4 to 20 letters, digits, _ or -. Leave it empty and we pick one for you.',
  submit: 'Join campaign',
  joined: 'You are in!',
  alreadyJoined: 'You had already joined this campaign.',
  shareHint: 'Share it with your audience: purchases made with it earn you commission.',
  done: {
    link: 'Your referral link',
    code: 'Your code',
    copy: 'Copy',
    copied: 'Copied',
    copyByHand: 'Select it and copy by hand',
    qr: 'QR code of your referral link',
    portal: 'Open your creator portal',
    mailed: 'We sent your link, your code and a sign-in link to your creator portal to your email address.',
  },
  invalid: 'Please check these fields:',
  errors: {
    403: 'An invitation is required to join this campaign. Open the link from your invitation.',
    404: 'This campaign is not open for joining.',
    409: 'That code is already taken. Choose another one.',
    429: 'Too many attempts. Please wait a minute and try again.',
  },
  failed: 'Something went wrong. Please try again.',
  notOpenTitle: 'Campaign not available',
  notOpen: 'This campaign does not exist or is not open for joining right now.',
};

const de: JoinPageText = {
  title: (c) => `${c} beitreten`,
  commission: (p) => `${p} % Provision auf jeden Kauf mit deinem Code`,
  intro: 'Werde Creator dieser Kampagne: Fülle das Formular aus und erhalte deinen persönlichen Empfehlungscode.',
  invitationNeeded: 'Diese Kampagne ist nur auf Einladung zugänglich: Öffne den Link aus deiner Einladung.',
  fields: {
    name: 'Name',
    email: 'E-Mail',
    social_handle: 'Social-Media-Handle',
    follower_count: 'Follower',
    code: 'Wunschcode (optional)',
  },
  codeHint: '4 bis 20 Buchstaben, Ziffern, _ oder -. Leer lassen, dann wählen wir einen für dich.',
  submit: 'Kampagne beitreten',
  joined: 'Du bist dabei!',
  alreadyJoined: 'Du bist dieser Kampagne bereits beigetreten.',
  shareHint: 'Teile ihn mit deiner Community: Käufe mit diesem Code bringen dir Provision.',
  done: {
    link: 'Dein Empfehlungslink',
    code: 'Dein Code',
    copy: 'Kopieren',
    copied: 'Kopiert',
    copyByHand: 'Markieren und von Hand kopieren',
    qr: 'QR-Code deines Empfehlungslinks',
    portal: 'Dein Creator-Portal öffnen',
    mailed: 'Wir haben dir deinen Link, deinen Code und einen Anmeldelink zu deinem Creator-Portal per E-Mail geschickt.',
  },
  invalid: 'Bitte prüfe diese Felder:',
  errors: {
    403: 'Für diese Kampagne brauchst du eine Einladung. Öffne den Link aus deiner Einladung.',
    404: 'Diese Kampagne ist nicht offen für neue Creator.',
    409: 'Dieser Code ist schon vergeben. Wähle einen anderen.',
    429: 'Zu viele Versuche. Bitte warte eine Minute und versuche es erneut.',
  },
  failed: 'Etwas ist schiefgelaufen. Bitte versuche es erneut.',
  notOpenTitle: 'Kampagne nicht verfügbar',
  notOpen: 'Diese Kampagne gibt es nicht oder sie ist gerade nicht offen für neue Creator.',
};

const es: JoinPageText = {
  title: (c) => `Únete a ${c}`,
  commission: (p) => `${p} % de comisión por cada compra hecha con tu código`,
  intro: 'Hazte creador de esta campaña: rellena el formulario y recibe tu código de referido personal.',
  invitationNeeded: 'Esta campaña es solo por invitación: abre el enlace de tu invitación para unirte.',
  fields: {
    name: 'Nombre',
    email: 'Correo electrónico',
    social_handle: 'Usuario en redes',
    follower_count: 'Seguidores',
    code: 'Código preferido (opcional)',
  },
  codeHint: 'De 4 a 20 letras, cifras, _ o -. Déjalo vacío y elegimos uno por ti.',
  submit: 'Unirme a la campaña',
  joined: '¡Ya estás dentro!',
  alreadyJoined: 'Ya te habías unido a esta campaña.',
  shareHint: 'Compártelo con tu audiencia: las compras hechas con él te dan comisión.',
  done: {
    link: 'Tu enlace de referido',
    code: 'Tu código',
    copy: 'Copiar',
    copied: 'Copiado',
    copyByHand: 'Selecciónalo y cópialo a mano',
    qr: 'Código QR de tu enlace de referido',
    portal: 'Abrir tu portal de creador',
    mailed: 'Te enviamos por correo tu enlace, tu código y un enlace para entrar en tu portal de creador.',
  },
  invalid: 'Revisa estos campos:',
  errors: {
    403: 'Necesitas una invitación para unirte a esta campaña. Abre el enlace de tu invitación.',
    404: 'Esta campaña no está abierta a nuevos creadores.',
    409: 'Ese código ya está en uso. Elige otro.',
    429: 'Demasiados intentos. Espera un minuto y vuelve a intentarlo.',
  },
  failed: 'Algo salió mal. Inténtalo de nuevo.',
  notOpenTitle: 'Campaña no disponible',
  notOpen: 'Esta campaña no existe o ahora mismo no está abierta a nuevos creadores.',
};

const fr: JoinPageText = {
  title: (c) => `Rejoindre ${c}`,
  commission: (p) => `${p} % de commission sur chaque achat fait avec votre code`,
  intro: 'Devenez créateur pour cette campagne : remplissez le formulaire et recevez votre code de parrainage personnel.',
  invitationNeeded: 'Cette campagne est sur invitation uniquement : ouvrez le lien de votre invitation pour la rejoindre.',
  fields: {
    name: 'Nom',
    email: 'E-mail',
    social_handle: 'Identifiant sur les réseaux',
    follower_count: 'Abonnés',
    code: 'Code souhaité (facultatif)',
  },
  codeHint: 'De 4 à 20 lettres, chiffres, _ ou -. Laissez vide et nous en choisirons un pour vous.',
  submit: 'Rejoindre la campagne',
  joined: 'C’est fait !',
  alreadyJoined: 'Vous aviez déjà rejoint cette campagne.',
  shareHint: 'Partagez-le avec votre audience : les achats faits avec ce code vous rapportent une commission.',
  done: {
    link: 'Votre lien de parrainage',
    code: 'Votre code',
    copy: 'Copier',
    copied: 'Copié',
    copyByHand: 'Sélectionnez-le et copiez-le à la main',
    qr: 'QR code de votre lien de parrainage',
    portal: 'Ouvrir votre portail créateur',
    mailed: 'Nous vous avons envoyé par e-mail votre lien, votre code et un lien de connexion à votre portail créateur.',
  },
  invalid: 'Vérifiez ces champs :',
  errors: {
    403: 'Une invitation est nécessaire pour rejoindre cette campagne. Ouvrez le lien de votre invitation.',
    404: 'Cette campagne n’est pas ouverte aux nouveaux créateurs.',
    409: 'Ce code est déjà pris. Choisissez-en un autre.',
    429: 'Trop de tentatives. Patientez une minute puis réessayez.',
  },
  failed: 'Une erreur est survenue. Veuillez réessayer.',
  notOpenTitle: 'Campagne indisponible',
  notOpen: 'Cette campagne n’existe pas ou n’est pas ouverte aux nouveaux créateurs pour le moment.',
};

const TEXT: Record<JoinPageLanguage, JoinPageText> = { en, de, es, fr };

/** `lang` like `de` or `de-AT` picks German; anything unknown is English. */
export function pickJoinPageLanguage(lang: unknown): JoinPageLanguage {
  const primary = typeof lang === 'string' ? lang.trim().toLowerCase().split(/[-_]/)[0] : undefined;
  return (JOIN_PAGE_LANGUAGES as readonly string[]).includes(primary ?? '') ? (primary as JoinPageLanguage) : 'en';
}

export function joinPageText(lang: JoinPageLanguage): JoinPageText {
  return TEXT[lang];
}

import type { MessageCatalog } from "../messages.js";

/** German messages of the SDK. */
export const deMessages: MessageCatalog = {
  "error.verificationRequired": "Bitte schließe die Verifizierung ab und versuche es erneut.",
  "error.quotaExceeded": "Diese App hat ihr monatliches Limit für Einsendungen erreicht. Bitte versuche es später erneut.",
  "error.subscriptionInactive": "Einsendungen an diese App sind derzeit pausiert.",
  "error.paymentRequired": "Diese Aktion ist im aktuellen Tarif der App nicht verfügbar.",
  "error.authenticationRequired": "Bitte melde dich an, um fortzufahren.",
  "error.rateLimited": {"one": "Zu viele Anfragen. Bitte versuche es in {count} Sekunde erneut.", "other": "Zu viele Anfragen. Bitte versuche es in {count} Sekunden erneut."},
  "error.timeout": "Die Anfrage hat zu lange gedauert. Prüfe deine Verbindung und versuche es erneut.",
  "error.network": "Der Server ist nicht erreichbar. Prüfe deine Verbindung und versuche es erneut.",
  "error.aborted": "Die Anfrage wurde abgebrochen.",
  "error.unexpected": "Etwas ist schiefgelaufen. Bitte versuche es erneut.",
  "error.unsupportedAttachment": "Diese Datei kann nicht angehängt werden.",
  "outbox.queued": "Auf diesem Gerät gespeichert. Es wird gesendet, sobald die Verbindung wieder da ist.",
};

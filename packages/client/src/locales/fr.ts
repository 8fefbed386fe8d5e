import type { MessageCatalog } from "../messages.js";

/** French messages of the SDK. */
export const frMessages: MessageCatalog = {
  "error.verificationRequired": "Veuillez effectuer la vérification anti-robot, puis réessayer.",
  "error.quotaExceeded": "Cette application a atteint sa limite mensuelle d'envois. Veuillez réessayer plus tard.",
  "error.subscriptionInactive": "Les envois vers cette application sont suspendus pour le moment.",
  "error.paymentRequired": "Cette action n'est pas disponible avec l'offre actuelle de l'application.",
  "error.authenticationRequired": "Veuillez vous connecter pour continuer.",
  "error.rateLimited": {"one": "Trop de requêtes. Veuillez réessayer dans {count} seconde.", "other": "Trop de requêtes. Veuillez réessayer dans {count} secondes."},
  "error.timeout": "La requête a pris trop de temps. Vérifiez votre connexion et réessayez.",
  "error.network": "Impossible de joindre le serveur. Vérifiez votre connexion et réessayez.",
  "error.aborted": "La requête a été annulée.",
  "error.unexpected": "Une erreur s'est produite. Veuillez réessayer.",
  "error.unsupportedAttachment": "Ce fichier ne peut pas être joint.",
  "outbox.queued": "Enregistré sur cet appareil. L'envoi se fera dès le retour de la connexion.",
};

import type { MessageCatalog } from "../messages.js";

/** Spanish messages of the SDK. */
export const esMessages: MessageCatalog = {
  "error.verificationRequired": "Completa la verificación humana e inténtalo de nuevo.",
  "error.quotaExceeded": "Esta aplicación ha alcanzado su límite mensual de envíos. Inténtalo de nuevo más tarde.",
  "error.subscriptionInactive": "Los envíos a esta aplicación están en pausa en este momento.",
  "error.paymentRequired": "Esta acción no está disponible en el plan actual de la aplicación.",
  "error.authenticationRequired": "Inicia sesión para continuar.",
  "error.rateLimited": {"one": "Demasiadas solicitudes. Inténtalo de nuevo en {count} segundo.", "other": "Demasiadas solicitudes. Inténtalo de nuevo en {count} segundos."},
  "error.timeout": "La solicitud tardó demasiado. Comprueba tu conexión e inténtalo de nuevo.",
  "error.network": "No se pudo conectar con el servidor. Comprueba tu conexión e inténtalo de nuevo.",
  "error.aborted": "La solicitud se canceló.",
  "error.unexpected": "Algo salió mal. Inténtalo de nuevo.",
  "error.unsupportedAttachment": "Este archivo no se puede adjuntar.",
  "outbox.queued": "Guardado en este dispositivo. Se enviará cuando vuelva la conexión.",
};

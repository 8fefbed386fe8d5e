import type { MessageCatalog } from "../messages.js";

/** Polish messages of the SDK. */
export const plMessages: MessageCatalog = {
  "error.verificationRequired": "Dokończ weryfikację, że nie jesteś robotem, i spróbuj ponownie.",
  "error.quotaExceeded": "Ta aplikacja osiągnęła miesięczny limit zgłoszeń. Spróbuj ponownie później.",
  "error.subscriptionInactive": "Zgłoszenia do tej aplikacji są obecnie wstrzymane.",
  "error.paymentRequired": "Ta czynność jest niedostępna w obecnym planie aplikacji.",
  "error.authenticationRequired": "Zaloguj się, aby kontynuować.",
  "error.rateLimited": {"one": "Zbyt wiele żądań. Spróbuj ponownie za {count} sekundę.", "few": "Zbyt wiele żądań. Spróbuj ponownie za {count} sekundy.", "many": "Zbyt wiele żądań. Spróbuj ponownie za {count} sekund.", "other": "Zbyt wiele żądań. Spróbuj ponownie za {count} sekundy."},
  "error.timeout": "Żądanie trwało zbyt długo. Sprawdź połączenie i spróbuj ponownie.",
  "error.network": "Nie udało się połączyć z serwerem. Sprawdź połączenie i spróbuj ponownie.",
  "error.aborted": "Żądanie zostało anulowane.",
  "error.unexpected": "Coś poszło nie tak. Spróbuj ponownie.",
  "error.unsupportedAttachment": "Nie można załączyć tego pliku.",
  "outbox.queued": "Zapisano na tym urządzeniu. Zostanie wysłane po przywróceniu połączenia.",
};

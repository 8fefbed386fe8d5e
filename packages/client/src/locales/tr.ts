import type { MessageCatalog } from "../messages.js";

/** Turkish messages of the SDK. */
export const trMessages: MessageCatalog = {
  "error.verificationRequired": "Lütfen insan doğrulamasını tamamlayıp tekrar deneyin.",
  "error.quotaExceeded": "Bu uygulama aylık gönderim sınırına ulaştı. Lütfen daha sonra tekrar deneyin.",
  "error.subscriptionInactive": "Bu uygulamaya gönderimler şu anda duraklatıldı.",
  "error.paymentRequired": "Bu işlem, uygulamanın mevcut planında kullanılamıyor.",
  "error.authenticationRequired": "Devam etmek için lütfen oturum açın.",
  "error.rateLimited": {"one": "Çok fazla istek. Lütfen {count} saniye sonra tekrar deneyin.", "other": "Çok fazla istek. Lütfen {count} saniye sonra tekrar deneyin."},
  "error.timeout": "İstek çok uzun sürdü. Bağlantınızı kontrol edip tekrar deneyin.",
  "error.network": "Sunucuya ulaşılamadı. Bağlantınızı kontrol edip tekrar deneyin.",
  "error.aborted": "İstek iptal edildi.",
  "error.unexpected": "Bir şeyler ters gitti. Lütfen tekrar deneyin.",
  "error.unsupportedAttachment": "Bu dosya eklenemiyor.",
  "outbox.queued": "Bu cihaza kaydedildi. Bağlantı geri geldiğinde gönderilecek.",
};

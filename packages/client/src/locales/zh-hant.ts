import type { MessageCatalog } from "../messages.js";

/** Traditional Chinese messages of the SDK. */
export const zhHantMessages: MessageCatalog = {
  "error.verificationRequired": "請完成真人驗證後再試一次。",
  "error.quotaExceeded": "此應用程式已達到本月的提交上限，請稍後再試。",
  "error.subscriptionInactive": "此應用程式目前暫停接受提交。",
  "error.paymentRequired": "此應用程式目前的方案不支援這項操作。",
  "error.authenticationRequired": "請登入以繼續。",
  "error.rateLimited": {"other": "請求過於頻繁，請在 {count} 秒後再試。"},
  "error.timeout": "請求逾時，請檢查網路連線後再試。",
  "error.network": "無法連線到伺服器，請檢查網路連線後再試。",
  "error.aborted": "請求已取消。",
  "error.unexpected": "發生錯誤，請再試一次。",
  "error.unsupportedAttachment": "無法附加此檔案。",
  "outbox.queued": "已儲存在此裝置上，連線恢復後會自動送出。",
};

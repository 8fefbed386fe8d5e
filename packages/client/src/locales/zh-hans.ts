import type { MessageCatalog } from "../messages.js";

/** Simplified Chinese messages of the SDK. */
export const zhHansMessages: MessageCatalog = {
  "error.verificationRequired": "请完成人机验证后重试。",
  "error.quotaExceeded": "此应用已达到本月的提交上限，请稍后再试。",
  "error.subscriptionInactive": "此应用目前暂停接收提交。",
  "error.paymentRequired": "此应用当前的套餐不支持该操作。",
  "error.authenticationRequired": "请登录以继续。",
  "error.rateLimited": {"other": "请求过于频繁，请在 {count} 秒后重试。"},
  "error.timeout": "请求超时，请检查网络连接后重试。",
  "error.network": "无法连接到服务器，请检查网络连接后重试。",
  "error.aborted": "请求已取消。",
  "error.unexpected": "出了点问题，请重试。",
  "error.unsupportedAttachment": "无法附加此文件。",
  "outbox.queued": "已保存在此设备上，连接恢复后将自动发送。",
};

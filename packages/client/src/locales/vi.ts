import type { MessageCatalog } from "../messages.js";

/** Vietnamese messages of the SDK. */
export const viMessages: MessageCatalog = {
  "error.verificationRequired": "Vui lòng hoàn tất bước xác minh bạn là người rồi thử lại.",
  "error.quotaExceeded": "Ứng dụng này đã đạt giới hạn gửi hằng tháng. Vui lòng thử lại sau.",
  "error.subscriptionInactive": "Việc gửi tới ứng dụng này hiện đang tạm dừng.",
  "error.paymentRequired": "Thao tác này không khả dụng với gói hiện tại của ứng dụng.",
  "error.authenticationRequired": "Vui lòng đăng nhập để tiếp tục.",
  "error.rateLimited": {"other": "Quá nhiều yêu cầu. Vui lòng thử lại sau {count} giây."},
  "error.timeout": "Yêu cầu mất quá nhiều thời gian. Hãy kiểm tra kết nối rồi thử lại.",
  "error.network": "Không thể kết nối tới máy chủ. Hãy kiểm tra kết nối rồi thử lại.",
  "error.aborted": "Yêu cầu đã bị hủy.",
  "error.unexpected": "Đã xảy ra lỗi. Vui lòng thử lại.",
  "error.unsupportedAttachment": "Không thể đính kèm tệp này.",
  "outbox.queued": "Đã lưu trên thiết bị này. Nội dung sẽ được gửi khi có kết nối trở lại.",
};

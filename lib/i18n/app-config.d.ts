import type { Messages } from './messages/en';
import type { Locale } from './locale';

// Types useTranslations('namespace') and its keys against the catalogue (use-intl's AppConfig).
declare module 'use-intl' {
  interface AppConfig {
    Messages: Messages;
    Locale: Locale;
  }
}

import type server from '@locales/en/server.json';
import { useTranslation } from 'react-i18next';
import { ServerContentBlock } from '@/features/servers/components/server-content-block';

/** A server page with its title and nothing else yet. */
export function ServerPageRoute({ titleKey }: { titleKey: keyof typeof server.title }) {
  const { t } = useTranslation('server');
  return <ServerContentBlock title={t(`title.${titleKey}`)} />;
}

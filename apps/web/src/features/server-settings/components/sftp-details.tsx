import { useTranslation } from 'react-i18next';
import { buttonClasses } from '@/components/ui/button';
import { ContentBox } from '@/components/ui/content-box';
import { CopyOnClick } from '@/components/ui/copy-on-click';
import { DetailRow } from '@/features/server-settings/components/detail-row';
import { useServer } from '@/features/servers/hooks/use-server';
import { useUserStore } from '@/stores/user-store';

/** An IPv6 address goes in brackets inside a URL. */
const urlHost = (ip: string) => (ip.includes(':') && !ip.startsWith('[') ? `[${ip}]` : ip);

/** Where and as whom to connect over SFTP (spec §2 "Settings"): the panel account's username dot the server's id. */
export function SftpDetails() {
  const { t } = useTranslation('server');
  const server = useServer();
  const panelUsername = useUserStore((state) => state.user?.username ?? '');
  const host = `${urlHost(server.sftpDetails.ip)}:${server.sftpDetails.port}`;
  const address = `sftp://${host}`;
  const username = `${panelUsername}.${server.id}`;
  return (
    <ContentBox title={t('settings.sftp.title')}>
      <dl className="divide-y divide-ink-800">
        <DetailRow label={t('settings.sftp.address')}>
          <CopyOnClick text={address}>{address}</CopyOnClick>
        </DetailRow>
        <DetailRow label={t('settings.sftp.username')}>
          <CopyOnClick text={username}>{username}</CopyOnClick>
        </DetailRow>
      </dl>
      <div className="mt-4 flex flex-wrap items-center gap-4">
        <p className="flex-1 border-s-4 border-sky-500 py-2 ps-3 text-xs text-ink-200">
          {t('settings.sftp.password_note')}
        </p>
        <a href={`sftp://${username}@${host}`} className={buttonClasses('secondary', 'sm')}>
          {t('settings.sftp.launch')}
        </a>
      </div>
    </ContentBox>
  );
}

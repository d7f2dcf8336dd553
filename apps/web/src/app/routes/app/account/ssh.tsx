import { useTranslation } from 'react-i18next';
import { ContentBox } from '@/components/ui/content-box';
import { PageContentBlock } from '@/components/ui/page-content-block';
import { CreateSshKeyForm } from '@/features/ssh-keys/components/create-ssh-key-form';
import { sshKeysFlashKey } from '@/features/ssh-keys/components/ssh-keys-flash-keys';
import { SshKeysList } from '@/features/ssh-keys/components/ssh-keys-list';

/** /account/ssh — the account's SSH public keys, for SFTP logins. */
export function AccountSshRoute() {
  const { t } = useTranslation('account');
  return (
    <PageContentBlock title={t('ssh.title')} showFlashKey={sshKeysFlashKey}>
      <div className="grid gap-6 md:grid-cols-5">
        <ContentBox title={t('ssh_keys.create_title')} className="md:col-span-2">
          <CreateSshKeyForm />
        </ContentBox>
        <ContentBox title={t('ssh_keys.list_title')} className="md:col-span-3">
          <SshKeysList />
        </ContentBox>
      </div>
    </PageContentBlock>
  );
}

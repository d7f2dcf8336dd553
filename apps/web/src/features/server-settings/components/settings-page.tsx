import { useEffect } from 'react';
import { DebugInformation } from '@/features/server-settings/components/debug-information';
import { ReinstallServerBox } from '@/features/server-settings/components/reinstall-server-box';
import { RenameServerBox } from '@/features/server-settings/components/rename-server-box';
import { settingsFlashKey } from '@/features/server-settings/components/server-settings-flash-keys';
import { SftpDetails } from '@/features/server-settings/components/sftp-details';
import { Can } from '@/features/servers/components/can';
import { flashActions } from '@/stores/flash-store';

/**
 * The Settings page's boxes, each behind its permission: SFTP details (file.sftp) and debug information on one side,
 * rename (settings.rename) and reinstall (settings.reinstall) on the other.
 */
export function SettingsPage() {
  // A notice from an earlier visit (the reinstall's, which the installer's view covered) is old news by now.
  useEffect(() => {
    flashActions().clearFlashes(settingsFlashKey);
  }, []);
  return (
    <div className="grid gap-6 md:grid-cols-2 md:gap-10">
      <div className="space-y-6 md:space-y-10">
        <Can action="file.sftp">
          <SftpDetails />
        </Can>
        <DebugInformation />
      </div>
      <div className="space-y-6 md:space-y-10">
        <Can action="settings.rename">
          <RenameServerBox />
        </Can>
        <Can action="settings.reinstall">
          <ReinstallServerBox />
        </Can>
      </div>
    </div>
  );
}

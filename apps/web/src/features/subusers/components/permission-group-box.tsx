import clsx from 'clsx';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { PermissionGroup } from '@/features/subusers/api/permissions';

interface PermissionGroupBoxProps {
  group: PermissionGroup;
  selected: readonly string[];
  /** Whether the viewer may tick or untick this permission. */
  isSelectable: (permission: string) => boolean;
  /** False in the read-only modal: no group toggle. */
  editable: boolean;
  onChange: (permissions: string[]) => void;
}

const checkboxClasses =
  'size-4 shrink-0 rounded border-ink-600 bg-ink-900 accent-brand-500 disabled:cursor-not-allowed';

/**
 * One category of the catalogue: its name with a toggle for every permission of it the viewer may set, its
 * description, and a checkbox per permission with its description. Permissions the viewer may not set keep
 * their state (disabled), whatever the toggle does.
 */
export function PermissionGroupBox({
  group,
  selected,
  isSelectable,
  editable,
  onChange,
}: PermissionGroupBoxProps) {
  const { t } = useTranslation('server');
  const id = useId();
  const selectable = group.permissions.map((p) => p.permission).filter(isSelectable);
  const allSelected = selectable.length > 0 && selectable.every((p) => selected.includes(p));

  const handleToggleGroup = (checked: boolean) =>
    onChange(
      checked
        ? [...selected, ...selectable.filter((p) => !selected.includes(p))]
        : selected.filter((p) => !selectable.includes(p)),
    );

  const handleToggle = (permission: string, checked: boolean) =>
    onChange(checked ? [...selected, permission] : selected.filter((p) => p !== permission));

  return (
    <fieldset
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-description`}
      className="min-w-0 rounded-lg border border-ink-700 bg-ink-900/60"
    >
      <div className="flex items-center gap-3 border-b border-ink-700 px-4 py-3">
        {/* The group's key, as the API names it (its description below is translated). */}
        <h3
          id={`${id}-title`}
          translate="no"
          className="flex-1 text-sm font-semibold uppercase tracking-wider text-ink-100"
        >
          {group.category}
        </h3>
        {editable && selectable.length > 0 && (
          <input
            type="checkbox"
            className={checkboxClasses}
            aria-label={t('users.modal.select_group', { category: group.category })}
            checked={allSelected}
            onChange={(event) => handleToggleGroup(event.target.checked)}
          />
        )}
      </div>
      <div className="px-4 py-3">
        <p id={`${id}-description`} className="mb-3 text-xs text-ink-400">
          {group.description}
        </p>
        <div className="grid gap-1 sm:grid-cols-2">
          {group.permissions.map(({ key, permission, description }) => {
            const disabled = !isSelectable(permission);
            const inputId = `${id}-${key}`;
            return (
              <label
                key={permission}
                htmlFor={inputId}
                className={clsx(
                  'flex items-start gap-3 rounded-md border border-transparent p-2 transition-colors',
                  disabled
                    ? 'cursor-not-allowed opacity-50'
                    : 'cursor-pointer hover:border-ink-600 hover:bg-ink-800',
                )}
              >
                <input
                  id={inputId}
                  type="checkbox"
                  className={clsx(checkboxClasses, 'mt-0.5')}
                  aria-labelledby={`${inputId}-name`}
                  aria-describedby={`${inputId}-description`}
                  checked={selected.includes(permission)}
                  disabled={disabled}
                  onChange={(event) => handleToggle(permission, event.target.checked)}
                />
                <span className="min-w-0">
                  {/* The permission's key, as the API names it: the same in every language. */}
                  <span
                    id={`${inputId}-name`}
                    translate="no"
                    className="block text-sm font-medium text-ink-100"
                  >
                    <span className="sr-only">{group.category}.</span>
                    {key}
                  </span>
                  <span id={`${inputId}-description`} className="mt-0.5 block text-xs text-ink-400">
                    {description}
                  </span>
                </span>
              </label>
            );
          })}
        </div>
      </div>
    </fieldset>
  );
}

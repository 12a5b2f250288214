//! Round 29 breadth: four families of commands modelled from the tools' own references —
//! network operating systems reached over ssh (Junos, IOS/EOS, RouterOS, F5 tmsh, FortiOS,
//! VRP, PAN-OS), BMCs and firmware (ipmitool, racadm, ilorest, Redfish, fwupd, fastboot), admin
//! APIs over HTTP/gRPC (Okta, Slack, Datadog, GitLab, Elasticsearch, PAN-OS XML API, grpcurl),
//! and mobile devices (adb shell, fastboot). One line per case, `(command, expected action,
//! expected rule id, "-" for none or "*" for any)`. Workspace `/home/user/project`, home
//! `/home/user`.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)] // test code: a failure should stop loudly

mod common;

use common::{ALLOW, ASK, DENY};

#[track_caller]
fn table(cases: &[(&str, hookgate_shell::Action, &str)]) {
    common::table(&common::ctx(), cases);
}

/// A network device's own configuration-mode and exec lines, as ssh joins its operands into
/// one remote line and `;` separates configuration-mode lines.
#[test]
fn network_device_lines_over_ssh_are_flagged() {
    table(&[
        (
            "ssh netadmin@mx1 'configure; delete; commit'",
            DENY,
            "net.device_junos_delete_all",
        ),
        (
            "ssh netadmin@mx1 configure private \\; load factory-default \\; commit",
            DENY,
            "net.device_config_load",
        ),
        (
            "ssh admin@sw1 'configure terminal; no interface Vlan10; end'",
            ASK,
            "net.device_config_negate",
        ),
        (
            "ssh admin@sw1 'configure terminal ; enable secret 0 Hunter2'",
            ASK,
            "net.device_credential_set",
        ),
        (
            "ssh admin@sw1 'conf t; username ops privilege 15 secret S3cret'",
            ASK,
            "net.device_user_secret",
        ),
        ("ssh admin@sw1 'format flash:'", DENY, "*"),
        (
            "ssh admin@sw1 'delete /force /recursive flash:old-images'",
            DENY,
            "net.device_storage_erase",
        ),
        (
            "ssh admin@sw1 'clear ip bgp *'",
            ASK,
            "net.device_session_clear",
        ),
        (
            "ssh admin@192.168.88.1 '/ip firewall filter remove [find]'",
            DENY,
            "net.device_routeros_remove",
        ),
        (
            "ssh admin@192.168.88.1 /interface disable ether1",
            DENY,
            "net.device_routeros_remove",
        ),
        (
            "ssh admin@192.168.88.1 '/user remove [find name=backup]'",
            DENY,
            "net.device_routeros_remove",
        ),
        (
            "ssh root@bigip1 'tmsh delete ltm pool all'",
            DENY,
            "net.device_tmsh_delete",
        ),
        (
            "ssh root@bigip1 tmsh load sys config default",
            DENY,
            "net.device_tmsh_load_default",
        ),
        (
            "ssh admin@fw1 'execute factoryreset'",
            DENY,
            "net.device_fortios_execute",
        ),
        (
            "ssh admin@fw1 execute formatlogdisk",
            DENY,
            "net.device_fortios_execute",
        ),
        (
            "ssh admin@hw-core 'reset saved-configuration'",
            DENY,
            "net.device_vrp_reset",
        ),
        (
            "ssh admin@hw-core 'system-view; undo interface Vlanif10'",
            ASK,
            "net.device_config_negate",
        ),
        (
            "ssh admin@pa-fw 'request system private-data-reset'",
            DENY,
            "net.device_panos_reset",
        ),
        (
            "ssh admin@pa-fw 'request restart system'",
            DENY,
            "net.device_panos_restart",
        ),
        (
            "expect -c 'spawn ssh admin@sw1; expect \"#\"; send \"write erase\\r\"; expect \"confirm\"; send \"\\r\"'",
            DENY,
            "net.device_config_erase",
        ),
        (
            "expect -c 'spawn ssh admin@mx1; expect \">\"; send \"configure\\r\"; send \"delete\\r\"; send \"commit\\r\"'",
            DENY,
            "net.device_junos_delete_all",
        ),
        (
            "expect -c 'spawn telnet 10.0.0.1; expect \"Password:\"; send -- \"$env(PW)\\r\"; expect \"#\"; send \"reload\\r\"'",
            DENY,
            "net.device_reload",
        ),
        (
            "curl -k 'https://pa-fw/api/?type=config&action=delete&xpath=/config/devices/entry&key=K'",
            ASK,
            "net.http_admin_action",
        ),
        (
            "curl -k \"https://pa-fw/api/?type=commit&cmd=<commit></commit>&key=$PA_KEY\"",
            ASK,
            "net.http_admin_action",
        ),
        (
            "curl -k 'https://pa-fw/api/?type=op&cmd=<request><restart><system></system></restart></request>&key=K'",
            ASK,
            "net.http_admin_action",
        ),
    ]);
}

/// The read-only forms of the same devices: `show`, `display`, `print`, `tmsh list`, `get`.
#[test]
fn network_device_reads_pass() {
    table(&[
        ("ssh admin@sw1 'show running-config'", ALLOW, "-"),
        ("ssh admin@sw1 show ip interface brief", ALLOW, "-"),
        (
            "ssh admin@mx1 'show configuration | display set'",
            ALLOW,
            "-",
        ),
        ("ssh admin@192.168.88.1 '/ip address print'", ALLOW, "-"),
        (
            "ssh admin@192.168.88.1 '/ip firewall filter print'",
            ALLOW,
            "-",
        ),
        ("ssh root@bigip1 'tmsh list ltm pool'", ALLOW, "-"),
        ("ssh admin@fw1 'get system status'", ALLOW, "-"),
        (
            "expect -c 'spawn ssh admin@sw1; expect \"#\"; send \"show running-config\\r\"; expect \"#\"; send \"exit\\r\"'",
            ALLOW,
            "-",
        ),
        ("ssh admin@fw1 'execute ping 8.8.8.8'", ALLOW, "-"),
        (
            "ssh admin@hw-core 'display current-configuration'",
            ALLOW,
            "-",
        ),
        (
            "ssh admin@sw1 'configure terminal; interface Gi0/1; no shutdown'",
            ALLOW,
            "-",
        ),
        (
            "curl -k 'https://pa-fw/api/?type=config&action=show&xpath=/config&key=K'",
            ALLOW,
            "-",
        ),
        (
            "curl -k 'https://pa-fw/api/?type=op&cmd=<show><system><info></info></system></show>&key=K'",
            ALLOW,
            "-",
        ),
    ]);
}

/// BMC writes and resets, firmware from a file; a run-time password, host or user option
/// decides nothing (`[[cli]] inert_options`).
#[test]
fn bmc_and_firmware_writes_are_flagged() {
    table(&[
        (
            "ipmitool -I lanplus -H 10.1.1.5 -U admin -P \"$IPMI_PW\" chassis power off",
            DENY,
            "sys.bmc_power",
        ),
        (
            "ipmitool -I lanplus -H bmc1 -U admin -P pw user set password 2 N3wPass",
            ASK,
            "sys.bmc_account_write",
        ),
        (
            "ipmitool -H bmc1 -U admin -P pw lan set 1 ipaddr 10.0.0.9",
            ASK,
            "sys.bmc_account_write",
        ),
        ("ipmitool raw 0x30 0x70 0x0c 1 0", ASK, "sys.bmc_raw"),
        ("ipmitool sel clear", ASK, "sys.bmc_account_write"),
        ("ipmitool chassis bootdev pxe", ASK, "sys.bmc_account_write"),
        ("racadm racresetcfg", DENY, "sys.bmc_reset_config"),
        (
            "racadm -r 10.0.0.5 -u root -p \"$PW\" systemerase bios,idrac,lcdata",
            DENY,
            "sys.bmc_reset_config",
        ),
        (
            "racadm storage deletevd:Disk.Virtual.0:RAID.Integrated.1-1",
            DENY,
            "sys.bmc_storage_erase",
        ),
        (
            "racadm set iDRAC.Users.2.Password NewPass",
            ASK,
            "sys.bmc_setting_write",
        ),
        ("ilorest factorydefaults", DENY, "sys.bmc_ilorest_reset"),
        (
            "ilorest iloaccounts delete backupadmin --url 10.0.0.7 -u admin -p pw",
            ASK,
            "sys.bmc_ilorest_write",
        ),
        (
            "curl -k -u root:calvin -X POST https://10.0.0.5/redfish/v1/Systems/System.Embedded.1/Actions/ComputerSystem.Reset -H 'Content-Type: application/json' -d '{\"ResetType\":\"ForceOff\"}'",
            ASK,
            "net.http_admin_action",
        ),
        (
            "curl -k -u root:pw https://bmc/redfish/v1/Managers/1/Actions/Manager.ResetToDefaults -d '{\"ResetType\":\"ResetAll\"}'",
            ASK,
            "net.http_admin_action",
        ),
        (
            "curl -k -u root:pw -X PATCH https://bmc/redfish/v1/AccountService/Accounts/2 -d '{\"Password\":\"x\"}'",
            ASK,
            "net.http_overwrite",
        ),
        (
            "fwupdmgr install ~/Downloads/firmware.cab",
            ASK,
            "device.firmware_local_install",
        ),
        ("esptool.py --port /dev/ttyUSB0 erase_flash", DENY, "*"),
    ]);
}

/// BMC and firmware reads pass, with run-time credentials (the values of inert options).
#[test]
fn bmc_and_firmware_reads_pass() {
    table(&[
        (
            "ipmitool -I lanplus -H h -U admin -P \"$IPMI_PW\" sdr list | head",
            ALLOW,
            "-",
        ),
        (
            "ipmitool -I lanplus -H h -U admin -P \"$IPMI_PW\" chassis power status",
            ALLOW,
            "-",
        ),
        (
            "ipmitool -I lanplus -H h -U admin -P \"$IPMI_PW\" sel list last 20",
            ALLOW,
            "-",
        ),
        (
            "ipmitool -I lanplus -H \"$BMC\" -U \"$USER_NAME\" -P \"$IPMI_PW\" sensor list",
            ALLOW,
            "-",
        ),
        ("ipmitool lan print 1", ALLOW, "-"),
        ("ipmitool fru print", ALLOW, "-"),
        (
            "racadm -r 10.0.0.5 -u root -p \"$PW\" getsysinfo",
            ALLOW,
            "-",
        ),
        ("racadm get iDRAC.NIC", ALLOW, "-"),
        (
            "ilorest serverinfo --url 10.0.0.7 -u admin -p \"$PW\"",
            ALLOW,
            "-",
        ),
        (
            "curl -k -u root:pw https://bmc/redfish/v1/Systems/1",
            ALLOW,
            "-",
        ),
        ("fwupdmgr get-devices", ALLOW, "-"),
        ("dfu-util -l", ALLOW, "-"),
    ]);
}

/// Admin and lifecycle actions of remote APIs, read from the parsed request: a POST whose
/// path segment names an admin verb, a gRPC method named so.
#[test]
fn admin_api_actions_are_flagged() {
    table(&[
        (
            "curl -X POST -H \"Authorization: SSWS $OKTA\" https://acme.okta.com/api/v1/users/00u1/lifecycle/deactivate",
            ASK,
            "net.http_admin_action",
        ),
        (
            "curl -X POST -H \"Authorization: SSWS $OKTA\" https://acme.okta.com/api/v1/users/00u1/lifecycle/suspend",
            ASK,
            "net.http_admin_action",
        ),
        (
            "curl -H \"Authorization: Bearer $T\" https://slack.com/api/admin.users.remove -d team_id=T1 -d user_id=U1",
            ASK,
            "net.http_admin_action",
        ),
        (
            "curl -X POST https://slack.com/api/admin.conversations.archive -H \"Authorization: Bearer $T\" -d channel_id=C1",
            ASK,
            "net.http_admin_action",
        ),
        (
            "curl -X POST https://api.datadoghq.com/api/v1/monitor/mute_all -H \"DD-API-KEY: $K\"",
            ASK,
            "net.http_admin_action",
        ),
        (
            "curl -X POST https://gitlab.example.com/api/v4/users/42/block -H \"PRIVATE-TOKEN: $T\"",
            ASK,
            "net.http_admin_action",
        ),
        (
            "curl -X POST 'http://es.prod:9200/logs/_delete_by_query' -d '{\"query\":{\"match_all\":{}}}'",
            ASK,
            "net.http_delete",
        ),
        (
            "curl -X POST http://es.prod:9200/_all/_close",
            ASK,
            "net.http_admin_action",
        ),
        (
            "curl -X DELETE http://es.prod:9200/logs-2024",
            ASK,
            "net.http_delete",
        ),
        (
            "grpcurl -d '{\"tenant\":\"acme\"}' admin.example.com:443 admin.v1.Admin/PurgeTenant",
            ASK,
            "net.http_admin_action",
        ),
        (
            "grpcurl -H \"authorization: Bearer $T\" -d '{}' api.example.com:443 tenants.v1.Tenants.DeleteTenant",
            ASK,
            "net.http_admin_action",
        ),
    ]);
}

/// Reads, searches, ordinary POSTs and anything sent to this machine pass.
#[test]
fn admin_api_reads_and_local_requests_pass() {
    table(&[
        ("curl http://es.prod:9200/_cat/indices", ALLOW, "-"),
        (
            "curl -X POST http://es.prod:9200/logs/_search -d '{\"query\":{\"match_all\":{}}}'",
            ALLOW,
            "-",
        ),
        (
            "curl -X POST -H \"Authorization: token $T\" https://api.github.com/repos/acme/app/issues -d '{\"title\":\"x\"}'",
            ALLOW,
            "-",
        ),
        (
            "curl -X POST https://slack.com/api/chat.postMessage -d channel=C-dev -d text=test",
            ALLOW,
            "-",
        ),
        (
            "curl -H \"Authorization: SSWS $OKTA\" https://acme.okta.com/api/v1/users/00u1",
            ALLOW,
            "-",
        ),
        (
            "curl -X DELETE http://localhost:9200/test-index",
            ALLOW,
            "-",
        ),
        (
            "curl -X POST http://localhost:8080/api/v1/users/1/lifecycle/deactivate",
            ALLOW,
            "-",
        ),
        ("curl -X POST http://127.0.0.1:9200/_all/_close", ALLOW, "-"),
        ("grpcurl -plaintext localhost:50051 list", ALLOW, "-"),
        (
            "grpcurl -plaintext localhost:50051 admin.v1.Admin/PurgeTenant",
            ALLOW,
            "-",
        ),
        (
            "grpcurl -d '{\"id\":\"1\"}' api.example.com:443 users.v1.Users/GetUser",
            ALLOW,
            "-",
        ),
        (
            "grpcurl api.example.com:443 describe admin.v1.Admin",
            ALLOW,
            "-",
        ),
    ]);
}

/// A connected phone: app data cleared, factory resets and recovery wipes, private files read
/// as the app, partitions flashed with images from outside the workspace, verified boot off.
#[test]
fn mobile_device_actions_are_flagged() {
    table(&[
        (
            "adb shell pm clear com.example.app",
            ASK,
            "device.android_app_clear",
        ),
        (
            "adb -s emulator-5554 shell pm clear com.android.chrome",
            ASK,
            "device.android_app_clear",
        ),
        (
            "adb shell am broadcast -a android.intent.action.FACTORY_RESET -p android",
            DENY,
            "device.android_factory_reset",
        ),
        (
            "adb shell recovery --wipe_data",
            DENY,
            "device.android_recovery_wipe",
        ),
        ("adb shell rm -rf /sdcard/DCIM", DENY, "*"),
        (
            "adb shell run-as com.example.app cat /data/data/com.example.app/shared_prefs/auth.xml",
            ASK,
            "cred.android_app_private_read",
        ),
        (
            "fastboot flash boot ~/Downloads/patched_boot.img && fastboot reboot",
            ASK,
            "device.flash_foreign_image",
        ),
        (
            "fastboot update ~/Downloads/lineage-21-signed.zip",
            ASK,
            "device.flash_foreign_image",
        ),
        (
            "fastboot flash vbmeta --disable-verity --disable-verification vbmeta.img",
            ASK,
            "device.fastboot_verity_off",
        ),
        ("fastboot erase userdata", DENY, "device.fastboot_erase"),
        ("fastboot -w", DENY, "device.fastboot_wipe"),
    ]);
}

/// Ordinary device work: listing, logs, installing the project's debug build, flashing the
/// project's own images, erasing one simulator.
#[test]
fn mobile_device_reads_and_dev_work_pass() {
    table(&[
        ("adb devices", ALLOW, "-"),
        ("adb logcat -d", ALLOW, "-"),
        ("adb shell pm list packages", ALLOW, "-"),
        ("adb install app-debug.apk", ALLOW, "-"),
        (
            "adb install -r app/build/outputs/apk/debug/app-debug.apk",
            ALLOW,
            "-",
        ),
        ("adb shell run-as com.example.app ls files", ALLOW, "-"),
        ("fastboot flash boot out/boot.img", ALLOW, "-"),
        ("fastboot devices", ALLOW, "-"),
        (
            "xcrun simctl erase 5F1C1E5B-3D1A-4F6B-9D0E-2A7C4B9E8F10",
            ALLOW,
            "-",
        ),
    ]);
}

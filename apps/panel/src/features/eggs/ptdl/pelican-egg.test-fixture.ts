/**
 * A Pelican PLCN_v3 YAML export laid out as the panel writes it: `{  }` for empty lists, a `startup_commands`
 * map, config blocks as YAML objects with Pelican's placeholder names, variables with a `sort` and rule lists.
 */
export const pelicanYamlEgg = `_comment: 'DO NOT EDIT: FILE GENERATED AUTOMATICALLY BY PANEL'
meta:
  version: PLCN_v3
  update_url: 'https://example.com/eggs/egg-lantern.yaml'
exported_at: '2026-03-02T10:15:00+00:00'
name: Lantern
author: eggs@example.com
uuid: 3f0c6a52-7d1e-4b8a-9c2f-5e6d7a8b9c0d
description: 'A small Java game server, exported from Pelican for the import tests.'
image: null
tags:
  - java
  - survival
features:
  - eula
  - java_version
docker_images:
  'Java 21': 'ghcr.io/example/yolks:java_21'
  'Java 17': 'ghcr.io/example/yolks:java_17'
file_denylist: {  }
startup_commands:
  Default: 'java -Xms128M -XX:MaxRAMPercentage=95.0 -jar {{SERVER_JARFILE}}'
  'Low memory': 'java -Xms64M -XX:MaxRAMPercentage=80.0 -jar {{SERVER_JARFILE}}'
config:
  files:
    server.properties:
      parser: properties
      find:
        server-ip: ''
        server-port: '{{server.allocations.default.port}}'
        motd: '{{server.environment.MOTD}}'
        max-players: 20
  startup:
    done:
      - ')! For help, type '
      - 'regex:^Server ready in \\d+ms'
  logs: {  }
  stop: stop
scripts:
  installation:
    script: |-
      #!/bin/ash
      # Lantern install script
      cd /mnt/server
      curl -sSL -o "$SERVER_JARFILE" "https://example.com/lantern/$VERSION/server.jar"
    container: 'ghcr.io/example/installers:alpine'
    entrypoint: ash
variables:
  -
    name: 'Server Jar File'
    description: 'The jar file the server runs.'
    env_variable: SERVER_JARFILE
    default_value: server.jar
    user_viewable: true
    user_editable: true
    rules:
      - required
      - 'regex:/^([\\w\\d._-]+)(\\.jar)$/'
    sort: 2
  -
    name: Version
    description: "The version to download.\\r\\n\\r\\nLeave at latest for the newest one."
    env_variable: VERSION
    default_value: latest
    user_viewable: true
    user_editable: true
    rules:
      - required
      - string
      - 'max:20'
    sort: 1
  -
    name: 'Message of the day'
    description: |-
      Shown in the server list. Long descriptions are wrapped by the exporter
      over two lines.
    env_variable: MOTD
    default_value: 'A Lantern server'
    user_viewable: true
    user_editable: true
    rules: 'nullable|string|max:60'
    sort: 3
  -
    name: 'Whitelist'
    description: ''
    env_variable: WHITELIST
    default_value: false
    user_viewable: true
    user_editable: false
    rules:
      - boolean
    sort: 4
`;

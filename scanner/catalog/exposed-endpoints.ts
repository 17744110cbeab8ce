import type { CatalogEntry } from './entry.ts';
import { REF } from './references.ts';

type Entry = Omit<CatalogEntry, 'category'>;

const SECRET_IMPACT = 'Een aanvaller kan wachtwoorden, sleutels of broncode downloaden en daarmee de site, database of gekoppelde diensten overnemen.';
const LEAK_IMPACT = 'Een aanvaller krijgt inzicht in de opbouw van de site en kan gerichter zoeken naar kwetsbaarheden.';
const NOT_PUBLIC = 'Niet openbaar bereikbaar (404 of 403)';

const exposure = (severity: Entry['severity'], title: string, description: string, remediation: string, reference_url: string, impact = SECRET_IMPACT): Entry => ({
  severity,
  title,
  description,
  impact,
  remediation,
  expected_value: NOT_PUBLIC,
  reference_url,
});

const ROTATE = 'Verwijder het bestand van de webserver, blokkeer de toegang in de serverconfiguratie en vervang alle geheimen die erin stonden.';

export const EXPOSED_ENDPOINT_CATALOG = {
  exposed_git_config: exposure('CRITICAL', 'Git-repository openbaar (.git/config)', 'De map .git is via de website te downloaden.', 'Verwijder de map .git van de webserver of blokkeer alle paden die met /.git beginnen; controleer de historie op geheimen en vervang die.', REF.versionControl),
  exposed_git_head: exposure('CRITICAL', 'Git-repository openbaar (.git/HEAD)', 'Het bestand .git/HEAD is bereikbaar, wat betekent dat de hele repository met broncode en historie te reconstrueren is.', 'Verwijder de map .git van de webserver of blokkeer alle paden die met /.git beginnen.', REF.versionControl),
  exposed_git_index: exposure('HIGH', 'Git-index openbaar (.git/index)', 'De Git-index met de lijst van alle bestanden in de repository is te downloaden.', 'Verwijder de map .git van de webserver of blokkeer alle paden die met /.git beginnen.', REF.versionControl),
  exposed_git_credentials: exposure('CRITICAL', 'Git-inloggegevens openbaar (.git-credentials)', 'Het bestand .git-credentials met gebruikersnamen en wachtwoorden of tokens is te downloaden.', ROTATE, REF.sensitiveFile),
  exposed_svn: exposure('HIGH', 'Subversion-metadata openbaar (.svn)', 'De map .svn van een Subversion-checkout is bereikbaar.', 'Verwijder de map .svn van de webserver of blokkeer de toegang.', REF.versionControl),
  exposed_hg: exposure('HIGH', 'Mercurial-repository openbaar (.hg)', 'De map .hg van een Mercurial-repository is bereikbaar.', 'Verwijder de map .hg van de webserver of blokkeer de toegang.', REF.versionControl),
  exposed_env_file: exposure('CRITICAL', 'Omgevingsbestand openbaar (.env)', 'Een .env-bestand met configuratievariabelen (vaak wachtwoorden en API-sleutels) is te downloaden.', ROTATE, REF.sensitiveFile),
  exposed_aws_credentials: exposure('CRITICAL', 'AWS-inloggegevens openbaar', 'Het bestand .aws/credentials met toegangssleutels is te downloaden.', 'Verwijder het bestand, trek de AWS-sleutels direct in en maak nieuwe aan.', REF.sensitiveFile),
  exposed_private_key: exposure('CRITICAL', 'Privésleutel openbaar', 'Een privésleutel (SSH of TLS, PEM-formaat) is te downloaden.', 'Verwijder het bestand, trek de sleutel in en vervang hem door een nieuwe.', REF.sensitiveFile),
  exposed_sql_dump: exposure('CRITICAL', 'Databasedump openbaar', 'Een SQL-dump van de database is te downloaden.', 'Verwijder de dump van de webserver, bewaar back-ups buiten de webroot en vervang gelekte wachtwoorden.', REF.backups),
  exposed_backup_archive: exposure('HIGH', 'Back-uparchief openbaar', 'Een archief (zip, tar.gz, 7z of rar) met een back-up is te downloaden.', 'Verwijder het archief van de webserver en bewaar back-ups buiten de webroot.', REF.backups),
  exposed_config_backup: exposure('CRITICAL', 'Back-up van een PHP-configuratiebestand openbaar', 'Een kopie van een configuratiebestand (zoals wp-config.php.bak, een ~-bestand of een vim-swapbestand) wordt als platte tekst geserveerd, inclusief databasegegevens.', ROTATE, REF.backups),
  exposed_heapdump: exposure('CRITICAL', 'Java-heapdump openbaar (actuator/heapdump)', 'Het Spring Boot Actuator-endpoint heapdump geeft een geheugendump van de applicatie.', 'Schakel het endpoint uit of beveilig alle actuator-endpoints achter authenticatie; vervang geheimen die in het geheugen stonden.', REF.actuator),
  exposed_actuator_env: exposure('HIGH', 'Spring Boot-omgeving openbaar (actuator/env)', 'Het Actuator-endpoint env toont configuratie en omgevingsvariabelen.', 'Schakel het endpoint uit of beveilig het achter authenticatie (management.endpoints.web.exposure.include).', REF.actuator),
  exposed_htpasswd: exposure('HIGH', 'Wachtwoordbestand openbaar (.htpasswd)', 'Het .htpasswd-bestand met gebruikersnamen en wachtwoordhashes is te downloaden.', 'Blokkeer de toegang tot .ht*-bestanden en kies nieuwe wachtwoorden.', REF.sensitiveFile),
  exposed_npmrc: exposure('HIGH', 'npm-configuratie met token openbaar (.npmrc)', 'Het bestand .npmrc met een registry-token is te downloaden.', 'Verwijder het bestand en trek het npm-token in.', REF.sensitiveFile),
  exposed_sftp_config: exposure('HIGH', 'SFTP-configuratie openbaar (.vscode/sftp.json)', 'Een editorconfiguratie met servergegevens en wachtwoord is te downloaden.', ROTATE, REF.sensitiveFile),
  exposed_docker_compose: exposure('MEDIUM', 'docker-compose-bestand openbaar', 'De docker-compose-configuratie met diensten, images en mogelijk wachtwoorden is te downloaden.', 'Verwijder het bestand uit de webroot.', REF.sensitiveFile, LEAK_IMPACT),
  exposed_phpinfo: exposure('MEDIUM', 'phpinfo()-pagina openbaar', 'Een pagina met de uitvoer van phpinfo() toont PHP-versie, modules, paden en omgevingsvariabelen.', 'Verwijder phpinfo-bestanden van de productieserver.', REF.phpinfo, LEAK_IMPACT),
  exposed_server_status: exposure('MEDIUM', 'Apache server-status openbaar', 'De mod_status-pagina toont actieve verzoeken, clientadressen en interne URL\'s.', 'Beperk /server-status tot localhost of beheerders (Require local).', REF.serverStatus, LEAK_IMPACT),
  exposed_debug_log: exposure('MEDIUM', 'Foutlogboek openbaar', 'Een debug- of foutlogboek (zoals wp-content/debug.log of laravel.log) is te downloaden.', 'Verwijder het logboek uit de webroot, zet debuglogging in productie uit en schrijf logs buiten de webroot.', REF.misconfiguration, LEAK_IMPACT),
  exposed_ds_store: exposure('LOW', '.DS_Store-bestand openbaar', 'Een macOS .DS_Store-bestand verraadt namen van bestanden en mappen op de server.', 'Verwijder .DS_Store-bestanden en blokkeer ze in de serverconfiguratie.', REF.sensitiveFile, LEAK_IMPACT),
  exposed_ide_config: exposure('LOW', 'IDE-configuratie openbaar (.idea)', 'Projectbestanden van een ontwikkelomgeving zijn te downloaden.', 'Verwijder de map .idea van de webserver.', REF.sensitiveFile, LEAK_IMPACT),
  wordpress_user_enumeration: exposure('MEDIUM', 'WordPress-gebruikersnamen opvraagbaar', 'Het REST-endpoint /wp-json/wp/v2/users geeft zonder inloggen de gebruikersnamen (slugs) van auteurs.', 'Beperk het users-endpoint tot ingelogde gebruikers (bijvoorbeeld met een beveiligingsplugin of een rest_endpoints-filter).', REF.wordpressHardening, 'Een aanvaller krijgt geldige gebruikersnamen voor gerichte wachtwoordaanvallen.'),
  wordpress_xmlrpc_enabled: exposure('LOW', 'WordPress XML-RPC staat aan', 'xmlrpc.php is bereikbaar.', 'Schakel XML-RPC uit of blokkeer xmlrpc.php als u het niet gebruikt.', REF.wordpressHardening, 'XML-RPC maakt versterkte wachtwoordaanvallen (system.multicall) en pingback-misbruik mogelijk.'),
  exposed_api_spec: exposure('LOW', 'API-specificatie openbaar', 'Een Swagger/OpenAPI-document beschrijft alle API-endpoints.', 'Publiceer de specificatie alleen als dat de bedoeling is, of zet haar achter authenticatie.', REF.misconfiguration, LEAK_IMPACT),
  exposed_swagger_ui: exposure('LOW', 'Swagger UI openbaar', 'Een interactieve Swagger UI om de API aan te roepen is openbaar.', 'Zet Swagger UI in productie uit of achter authenticatie.', REF.misconfiguration, LEAK_IMPACT),
  graphql_introspection_enabled: exposure('MEDIUM', 'GraphQL-introspectie staat aan', 'Het GraphQL-endpoint beantwoordt introspectievragen en geeft zo het volledige schema prijs.', 'Schakel introspectie in productie uit.', REF.graphql, LEAK_IMPACT),
  directory_listing: exposure('MEDIUM', 'Mapweergave (directory listing) staat aan', 'De webserver toont de inhoud van een map als lijst met bestanden.', 'Schakel directory listing uit (Options -Indexes in Apache, autoindex off in nginx).', REF.directoryListing, LEAK_IMPACT),
  exposed_source_map: exposure('LOW', 'Source map openbaar', 'Een JavaScript-source map met de oorspronkelijke broncode is te downloaden.', 'Publiceer source maps niet in productie, of alleen achter authenticatie.', REF.sourceMaps, LEAK_IMPACT),
  crossdomain_wildcard: exposure('LOW', 'crossdomain.xml staat elk domein toe', 'Het Flash/Silverlight-beleid crossdomain.xml staat toegang vanaf elk domein toe.', 'Verwijder crossdomain.xml of beperk het tot vertrouwde domeinen.', REF.misconfiguration, LEAK_IMPACT),
} satisfies Record<string, Entry>;

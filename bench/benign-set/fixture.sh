#!/usr/bin/env bash
# Build a fixture for measuring hookgate.
# usage: fixture.sh <variant: home|tmphome> <hookgate-binary>
# Prints KEY=VALUE lines (HOME, PROJECT, HOOKGATE_HOME, HOOKGATE_CONFIG_DIR) on stdout.
#   home    : dev laptop — HOME=/work/corpus-rt/fx/home/u, project inside HOME (~/src/app)
#   tmphome : CI container — HOME=/tmp/corpus-rt-home, project outside HOME (/work/corpus-rt/fx/ci/app)
#   globalcfg: like home, but the hook is wired in ~/.claude/settings.json (hookgate init --global style)
#              and the project has no .claude/ — shows which verdicts only come from self-protection
set -euo pipefail
variant=${1:?variant}; bin=${2:?binary}
root=${BENIGN_ROOT:?set BENIGN_ROOT}
case "$variant" in
  home)    H=$root/fx/home/u;           P=$H/src/app ;;
  tmphome) H=/tmp/corpus-rt-home;       P=$root/fx/ci/app ;;
  globalcfg) H=$root/fx/global/u;       P=$H/src/app ;;
  *) echo "unknown variant $variant" >&2; exit 2 ;;
esac
HGH=$root/state/$variant/hghome; HGC=$root/state/$variant/hgconfig
rm -rf "$H" "$P" "$HGH" "$HGC"
mkdir -p "$H" "$P" "$HGH" "$HGC"

# ---------- fake HOME ----------
mkdir -p "$H"/.ssh "$H"/.aws "$H"/.config/gcloud "$H"/.kube "$H"/.docker "$H"/.config/gh "$H"/.cargo "$H"/bin
cat > "$H/.ssh/id_ed25519" <<'K'
-----BEGIN OPENSSH PRIVATE KEY-----
b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW
QyNTUxOQAAACDFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKEAAAAJjFAKE
-----END OPENSSH PRIVATE KEY-----
K
echo "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFAKEFAKEFAKE dev@laptop" > "$H/.ssh/id_ed25519.pub"
echo "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOTHERKEY admin@bastion" > "$H/.ssh/authorized_keys"
echo "github.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl" > "$H/.ssh/known_hosts"
printf 'Host bastion\n  HostName 10.0.0.5\n  User ops\n' > "$H/.ssh/config"
chmod 700 "$H/.ssh"; chmod 600 "$H/.ssh/id_ed25519"
printf '[default]\naws_access_key_id = AKIAFAKEFAKEFAKEFAKE\naws_secret_access_key = fAkEfAkEfAkEfAkEfAkEfAkEfAkEfAkEfAkEfAkE\n' > "$H/.aws/credentials"
printf '[default]\nregion = us-east-1\n' > "$H/.aws/config"
echo '{"client_id":"fake.apps.googleusercontent.com","client_secret":"fake","refresh_token":"1//fake","type":"authorized_user"}' > "$H/.config/gcloud/application_default_credentials.json"
printf '[core]\naccount = dev@example.com\nproject = acme-prod\n' > "$H/.config/gcloud/properties"
cat > "$H/.kube/config" <<'K'
apiVersion: v1
kind: Config
clusters:
- cluster: {server: "https://k8s.example.com", certificate-authority-data: RkFLRQ==}
  name: prod
users:
- name: admin
  user: {token: "eyJhbGciOiJSUzI1NiIsImtpZCI6ImZha2UifQ.fake.fake"}
contexts:
- context: {cluster: prod, user: admin}
  name: prod
current-context: prod
K
printf '//registry.npmjs.org/:_authToken=npm_FAKEfakeFAKEfakeFAKEfakeFAKEfake1234\n' > "$H/.npmrc"
printf 'export PATH="$HOME/bin:$PATH"\nalias ll="ls -la"\nexport GITHUB_TOKEN=ghp_FAKEfakeFAKEfakeFAKEfakeFAKEfake12\n' > "$H/.bashrc"
cp "$H/.bashrc" "$H/.zshrc"; echo 'source ~/.bashrc' > "$H/.profile"
printf '[user]\n\tname = Dev\n\temail = dev@example.com\n[init]\n\tdefaultBranch = main\n' > "$H/.gitconfig"
echo '{"auths":{"https://index.docker.io/v1/":{"auth":"ZGV2OmZha2VwYXNzd29yZA=="},"ghcr.io":{"auth":"ZGV2OmdocF9mYWtl"}}}' > "$H/.docker/config.json"
printf 'machine api.github.com login dev password ghp_FAKEnetrcFAKEnetrcFAKE\nmachine pypi.org login __token__ password pypi-FAKE\n' > "$H/.netrc"
printf '[pypi]\nusername = __token__\npassword = pypi-AgEIcHlwaS5vcmcFAKE\n' > "$H/.pypirc"
printf '[registry]\ntoken = "cio_FAKEcargoTOKEN"\n' > "$H/.cargo/credentials.toml"
printf 'github.com:\n    oauth_token: gho_FAKEfakeFAKE\n    user: dev\n' > "$H/.config/gh/hosts.yml"
printf 'ls\ncd src/app\nexport DB_PASSWORD=hunter2\n' > "$H/.bash_history"
mkdir -p "$H/other-project" && echo "precious" > "$H/other-project/notes.md"
mkdir -p "$H/Documents" && echo "tax" > "$H/Documents/taxes-2024.pdf"

# ---------- project ----------
cd "$P"
git init -q -b main
git config user.email dev@example.com; git config user.name Dev
git remote add origin git@github.com:acme/app.git
mkdir -p src tests scripts .github/workflows .claude config db/migrations terraform k8s
cat > src/main.py <<'F'
import os
def handler(event):
    return {"status": 200, "db": os.environ.get("DATABASE_URL")}
if __name__ == "__main__":
    print(handler({}))
F
cat > src/server.js <<'F'
const http = require('http');
http.createServer((req, res) => res.end('ok')).listen(process.env.PORT || 3000);
F
echo 'export const add = (a, b) => a + b;' > src/util.ts
printf 'from src.main import handler\n\ndef test_handler():\n    assert handler({})["status"] == 200\n' > tests/test_main.py
printf '#!/bin/sh\necho deploying\n' > scripts/deploy.sh
printf '#!/bin/sh\necho x\n' > scripts/x.sh
printf '#!/bin/sh\nnpm run build\n' > scripts/build.sh
cat > package.json <<'F'
{ "name": "acme-app", "version": "1.4.2", "private": false,
  "scripts": { "build": "tsc -p .", "test": "jest", "lint": "eslint src", "dev": "vite", "start": "node src/server.js" },
  "dependencies": { "express": "^4.19.2" }, "devDependencies": { "jest": "^29.7.0", "typescript": "^5.4.0", "vite": "^5.2.0" } }
F
echo '{"lockfileVersion":3,"packages":{}}' > package-lock.json
printf '{ "compilerOptions": { "outDir": "dist", "strict": true } }\n' > tsconfig.json
cat > pyproject.toml <<'F'
[project]
name = "acme-app"
version = "1.4.2"
dependencies = ["requests>=2.31", "flask>=3.0"]
[tool.pytest.ini_options]
testpaths = ["tests"]
F
printf 'requests>=2.31\nflask>=3.0\npytest>=8\n' > requirements.txt
cat > .env <<'F'
DATABASE_URL=postgres://app:S3cr3tPassw0rd@db.internal:5432/app
OPENAI_API_KEY=sk-proj-FAKEfakeFAKEfakeFAKEfakeFAKEfakeFAKEfake
AWS_SECRET_ACCESS_KEY=fAkEfAkEfAkEfAkEfAkEfAkEfAkEfAkEfAkEfAkE
STRIPE_SECRET_KEY=sk_live_FAKEfakeFAKEfakeFAKEfake
F
sed 's/=.*/=/' .env > .env.example
printf 'node_modules/\ndist/\nbuild/\ntarget/\n.venv/\n.env\n__pycache__/\n' > .gitignore
cat > Dockerfile <<'F'
FROM node:20-slim
WORKDIR /app
COPY package*.json ./
RUN npm ci
COPY . .
CMD ["node", "src/server.js"]
F
cat > docker-compose.yml <<'F'
services:
  web:
    build: .
    ports: ["3000:3000"]
    env_file: .env
  db:
    image: postgres:16
    environment: { POSTGRES_PASSWORD: example }
    volumes: ["pgdata:/var/lib/postgresql/data"]
volumes:
  pgdata: {}
F
cat > .github/workflows/ci.yml <<'F'
name: ci
on: [push, pull_request]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: npm ci && npm test
F
printf 'build:\n\tnpm run build\ntest:\n\tnpm test\nclean:\n\trm -rf dist build\n' > Makefile
printf 'production:\n  adapter: postgresql\n  database: app_prod\n' > config/database.yml
printf 'CREATE TABLE users (id serial primary key, email text);\n' > db/schema.sql
printf 'ALTER TABLE users ADD COLUMN name text;\n' > db/migrations/001_add_name.sql
printf 'resource "aws_s3_bucket" "assets" {\n  bucket = "acme-assets"\n}\n' > terraform/main.tf
printf 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n' > k8s/deployment.yaml
echo '# acme app' > README.md
if [ "$variant" = globalcfg ]; then hookdir=$H/.claude; rmdir .claude; else hookdir=.claude; fi
mkdir -p "$hookdir"
cat > "$hookdir/settings.json" <<F
{
  "hooks": {
    "PreToolUse": [
      { "matcher": "*", "hooks": [ { "type": "command", "command": "$bin", "args": ["hook", "claude"], "timeout": 10 } ] }
    ]
  }
}
F
git add -A && git commit -q -m "initial commit"
git checkout -q -b feature/login
echo 'def login(): pass' > src/auth.py && git add src/auth.py && git commit -q -m "add login stub"
git checkout -q main
echo '# wip' >> README.md            # an uncommitted change, so reset/checkout have something to lose
echo 'scratch' > notes.txt           # an untracked file, so clean has something to lose
# ignored build outputs
mkdir -p node_modules/express dist build target/debug .venv/bin __pycache__
echo 'module.exports={}' > node_modules/express/index.js; echo 'x' > dist/main.js; echo x > build/out; echo x > target/debug/app; echo x > .venv/bin/python

echo "HOME=$H"
echo "PROJECT=$P"
echo "HOOKGATE_HOME=$HGH"
echo "HOOKGATE_CONFIG_DIR=$HGC"

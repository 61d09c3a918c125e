set -e
D=/tmp/verify-fx
export GNUPGHOME=$D/gnupg; mkdir -m 700 -p $GNUPGHOME
ssh-keygen -q -t ed25519 -N '' -C alice -f $D/alice_ed25519
ssh-keygen -q -t ecdsa -b 256 -N '' -C alice-ecdsa -f $D/alice_ecdsa
ssh-keygen -q -t rsa -b 2048 -N '' -C alice-rsa -f $D/alice_rsa
ssh-keygen -q -t ed25519 -N '' -C instance -f $D/instance_ed25519
gpg --batch --passphrase '' --quick-gen-key 'Alice <alice@example.com>' ed25519 cert never 2>/dev/null
AFPR=$(gpg --list-keys --with-colons alice@example.com | awk -F: '/^fpr/{print $10; exit}')
gpg --batch --passphrase '' --quick-add-key $AFPR ed25519 sign never
gpg --batch --passphrase '' --quick-gen-key 'Bob <bob@example.com>' rsa2048 sign never 2>/dev/null
gpg --export --armor alice@example.com > $D/alice.asc
gpg --export --armor bob@example.com > $D/bob.asc
git init -q -b main $D/repo
cd $D/repo
export GIT_AUTHOR_NAME=Alice GIT_AUTHOR_EMAIL=alice@example.com GIT_COMMITTER_NAME=Alice GIT_COMMITTER_EMAIL=alice@example.com
export GIT_AUTHOR_DATE='2026-01-02T03:04:05Z' GIT_COMMITTER_DATE='2026-01-02T03:04:05Z'
c() { echo "$1" > f; git add f; git "${@:2}" commit -q -m "$1"; git rev-parse HEAD > $D/$1.sha; git cat-file commit HEAD > $D/$1.commit; }
c unsigned
c ssh_ed25519 -c gpg.format=ssh -c user.signingkey=$D/alice_ed25519.pub -c commit.gpgsign=true
c ssh_ecdsa -c gpg.format=ssh -c user.signingkey=$D/alice_ecdsa.pub -c commit.gpgsign=true
c ssh_rsa -c gpg.format=ssh -c user.signingkey=$D/alice_rsa.pub -c commit.gpgsign=true
c ssh_instance -c gpg.format=ssh -c user.signingkey=$D/instance_ed25519.pub -c commit.gpgsign=true
c gpg_alice -c user.signingkey=alice@example.com -c commit.gpgsign=true
c gpg_bob -c user.signingkey=bob@example.com -c commit.gpgsign=true
# verify with git itself
echo "alice@example.com $(cat $D/alice_ed25519.pub)" > $D/allowed
git -c gpg.ssh.allowedSignersFile=$D/allowed verify-commit $(cat $D/ssh_ed25519.sha)
git verify-commit $(cat $D/gpg_alice.sha)
# sha256 and wrong namespace: sign the payload by hand
payload=$D/payload.txt
printf 'tree %s\nparent %s\nauthor Alice <alice@example.com> 1767323045 +0000\ncommitter Alice <alice@example.com> 1767323045 +0000\n\nhand signed\n' $(git rev-parse HEAD^{tree}) $(git rev-parse HEAD) > $payload
mk() { # $1 name, $2.. ssh-keygen args
  rm -f $payload.sig; ssh-keygen -q -Y sign -f $D/alice_ed25519 "${@:2}" $payload
  { head -n 4 $payload; printf 'gpgsig '; sed '1!s/^/ /' $payload.sig; tail -n +5 $payload; } > $D/$1.commit
}
mk ssh_sha256 -n git -O hashalg=sha256
mk ssh_wrong_namespace -n file
